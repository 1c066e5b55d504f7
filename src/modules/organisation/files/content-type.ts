import { fileTypeFromBuffer } from 'file-type'

/**
 * Content types accepted for upload, keyed by what `file-type` reports from the magic bytes.
 * The value is the type we store and serve (APNG is served as PNG, its compatible form).
 */
const ALLOWED_BINARY: Readonly<Record<string, string>> = {
  'image/png': 'image/png',
  'image/apng': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
  'image/heic': 'image/heic',
  'image/heif': 'image/heif',
  'application/pdf': 'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation':
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
}

/** Bytes read before deciding; enough for the zip entries that tell docx/xlsx/pptx apart. */
export const DETECTION_SAMPLE_BYTES = 64 * 1024

export interface DetectedType {
  contentType: string
  /** Text is only accepted if the whole content is UTF-8 without NULs, checked while streaming. */
  isText: boolean
}

/**
 * The content type of an upload from its first bytes (never from what the client declared), or
 * undefined when it is not on the allow-list. `fileName` only chooses text/csv over text/plain
 * once the content itself has been found to be text.
 */
export async function detectContentType(
  head: Uint8Array,
  fileName: string,
): Promise<DetectedType | undefined> {
  const detected = await fileTypeFromBuffer(head)
  if (detected) {
    const allowed = ALLOWED_BINARY[detected.mime]
    return allowed ? { contentType: allowed, isText: false } : undefined
  }
  if (!looksLikePlainText(head)) return undefined
  return { contentType: /\.csv$/i.test(fileName) ? 'text/csv' : 'text/plain', isText: true }
}

/** `head` may end inside a multi-byte character, so the decoder is told more may follow. */
function looksLikePlainText(head: Uint8Array): boolean {
  if (head.includes(0)) return false
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true })
    return !startsWithMarkup(text)
  } catch {
    return false
  }
}

/**
 * HTML, XML and SVG are text a browser would render or run; they are refused even though they
 * are valid UTF-8. A tag, declaration or comment at the start (after a BOM and blank space) marks them.
 */
function startsWithMarkup(text: string): boolean {
  return /^\uFEFF?\s*<[!?/A-Za-z]/.test(text)
}

/**
 * Validates text content chunk by chunk: valid UTF-8 (a character may span chunks) and no NUL
 * byte. `finish` reports a truncated final character.
 */
export class TextValidator {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true })

  accept(chunk: Uint8Array): boolean {
    if (chunk.includes(0)) return false
    try {
      this.decoder.decode(chunk, { stream: true })
      return true
    } catch {
      return false
    }
  }

  finish(): boolean {
    try {
      this.decoder.decode()
      return true
    } catch {
      return false
    }
  }
}
