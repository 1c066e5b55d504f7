import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { crc32 } from 'node:zlib'
import type { Core } from '../../../../test/harness.js'

/** Test helpers for file uploads: multipart bodies, small real files of each kind, a fake S3 server. */

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

export interface Part {
  name: string
  fileName?: string
  contentType?: string
  content: Buffer | string
}

/** A multipart/form-data request body (headers included), as a browser would send it. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----cartage-test-${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition =
      part.fileName === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.fileName.replace(/"/g, '%22')}"`
    const headers = [`Content-Disposition: ${disposition}`]
    if (part.contentType) headers.push(`Content-Type: ${part.contentType}`)
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`, 'utf8'))
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8'))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

/** POST /api/files/single with one `file` part. */
export function upload(
  core: Core,
  content: Buffer | string,
  fileName = 'file.bin',
  contentType = 'application/octet-stream',
) {
  const body = multipart([{ name: 'file', fileName, contentType, content }])
  return core({ method: 'POST', url: '/api/files/single', ...body })
}

/** A 1x1 PNG (signature and IHDR are what detection reads; the rest makes it a real image). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0', 'latin1'),
  Buffer.alloc(64, 0x11),
  Buffer.from([0xff, 0xd9]),
])
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
)
/** An ELF header (a Linux executable): never accepted, whatever the client calls it. */
export const ELF = Buffer.concat([
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]),
  Buffer.alloc(56, 0),
  Buffer.alloc(200, 0x90),
])
export const HTML = '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>\n'

/** A zip with stored (uncompressed) entries, enough for OOXML detection. */
export function zip(entries: { name: string; content: string }[]): Buffer {
  const local: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const data = Buffer.from(entry.content, 'utf8')
    const crc = crc32(data)
    const header = Buffer.alloc(30)
    header.writeUInt32LE(0x04034b50, 0)
    header.writeUInt16LE(20, 4)
    header.writeUInt32LE(crc, 14)
    header.writeUInt32LE(data.length, 18)
    header.writeUInt32LE(data.length, 22)
    header.writeUInt16LE(name.length, 26)
    local.push(header, name, data)
    const record = Buffer.alloc(46)
    record.writeUInt32LE(0x02014b50, 0)
    record.writeUInt16LE(20, 4)
    record.writeUInt16LE(20, 6)
    record.writeUInt32LE(crc, 16)
    record.writeUInt32LE(data.length, 20)
    record.writeUInt32LE(data.length, 24)
    record.writeUInt16LE(name.length, 28)
    record.writeUInt32LE(offset, 42)
    central.push(record, name)
    offset += header.length + name.length + data.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...local, directory, end])
}

const contentTypesXml = (main: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="xml" ContentType="application/xml"/><Override PartName="/main.xml" ContentType="${main}"/></Types>`

export const DOCX = zip([
  {
    name: '[Content_Types].xml',
    content: contentTypesXml(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    ),
  },
  { name: 'word/document.xml', content: '<w:document/>' },
])
export const XLSX = zip([
  {
    name: '[Content_Types].xml',
    content: contentTypesXml('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'),
  },
  { name: 'xl/workbook.xml', content: '<workbook/>' },
])
export const PLAIN_ZIP = zip([{ name: 'notes.txt', content: 'hello' }])

/** Every file below `dir` (relative paths), to show what storage holds. */
export function filesUnder(dir: string): string[] {
  const found: string[] = []
  const walk = (current: string) => {
    let names: string[]
    try {
      names = readdirSync(current)
    } catch {
      return
    }
    for (const name of names) {
      const full = path.join(current, name)
      if (statSync(full).isDirectory()) walk(full)
      else found.push(path.relative(dir, full))
    }
  }
  walk(dir)
  return found.sort()
}

export function temporaryDir(label: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `cartage-${label}-`))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
