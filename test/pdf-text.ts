import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/**
 * The text of a PDF as poppler's `pdftotext -layout` reads it (Debian's poppler-utils, installed
 * by .ci/run): what a reader of the document sees, in reading order, columns kept on their lines.
 */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cartage-pdf-'))
  try {
    const file = path.join(dir, 'document.pdf')
    await writeFile(file, pdf)
    return await new Promise<string>((resolve, reject) => {
      execFile('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { timeout: 30_000 }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      )
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** A line of the text squeezed to single spaces, so a test reads a table row as words. */
export const squeezed = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
