/** File names as stored and shown: what the client sent, made harmless. */

const MAX_NAME_LENGTH = 255
/** C0/C1 controls, and the format characters (bidi overrides, zero-width) used to disguise an extension. */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\u2028\u2029]/gu

/**
 * The last path segment of the client's name (either separator), without control or invisible
 * formatting characters, trimmed, at most 255 characters with the extension kept. A name that is
 * empty or only dots becomes `file` plus the extension of the detected type.
 */
export function sanitiseFileName(raw: string | undefined, fallbackExtension: string): string {
  const lastSegment = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? ''
  let name = lastSegment.replace(UNSAFE_CHARACTERS, '').trim()
  if (/^\.*$/.test(name)) name = `file${fallbackExtension}`
  return truncateKeepingExtension(name, MAX_NAME_LENGTH)
}

function truncateKeepingExtension(name: string, max: number): string {
  const characters = Array.from(name) // by code point, so a surrogate pair is never split
  if (characters.length <= max) return name
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 ? Array.from(name.slice(dot)) : []
  const keep = extension.length > 0 && extension.length <= 16 ? extension : []
  return characters.slice(0, max - keep.length).join('') + keep.join('')
}

/** Extension for a nameless upload, from its detected type. */
export function extensionFor(contentType: string): string {
  const known: Record<string, string> = {
    'image/png': '.png',
    'image/jpeg': '.jpg',
    'image/gif': '.gif',
    'image/webp': '.webp',
    'image/heic': '.heic',
    'image/heif': '.heif',
    'application/pdf': '.pdf',
    'text/plain': '.txt',
    'text/csv': '.csv',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation': '.pptx',
  }
  return known[contentType] ?? ''
}

/**
 * `attachment` with an ASCII fallback `filename` and the exact name as RFC 5987 `filename*`
 * (RFC 6266 §4.3): clients that understand `filename*` use it, older ones the fallback.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(fileName)}`
}

/** Percent-encodes everything outside RFC 5987's attr-char set (encodeURIComponent leaves '()* alone). */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
