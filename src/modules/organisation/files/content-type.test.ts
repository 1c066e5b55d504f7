import { describe, expect, it } from 'vitest'
import { DETECTION_SAMPLE_BYTES, detectContentType, TextValidator } from './content-type.js'
import { contentDisposition, sanitiseFileName } from './file-name.js'
import { DOCX, ELF, GIF, HTML, JPEG, PDF, PLAIN_ZIP, PNG, XLSX, zip } from './files.fixtures.js'

const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(28, 1),
])
const HEIC = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypheic'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mif1heic'),
  Buffer.alloc(32, 0),
])
const PPTX = zip([
  {
    name: '[Content_Types].xml',
    content:
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>',
  },
  { name: 'ppt/presentation.xml', content: '<p:presentation/>' },
])
const WINDOWS_EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(58, 0),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.alloc(64, 0),
  Buffer.from('PE\0\0'),
  Buffer.alloc(64, 0),
])

const type = async (bytes: Buffer | string, name = 'upload') =>
  (await detectContentType(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, name))?.contentType

describe('content type detection (from the bytes, never the declared type)', () => {
  it('recognises each allowed kind by its magic bytes', async () => {
    expect(await type(PNG)).toBe('image/png')
    expect(await type(JPEG)).toBe('image/jpeg')
    expect(await type(GIF)).toBe('image/gif')
    expect(await type(WEBP)).toBe('image/webp')
    expect(await type(HEIC)).toBe('image/heic')
    expect(await type(PDF)).toBe('application/pdf')
    expect(await type(DOCX)).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
    expect(await type(XLSX)).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(await type(PPTX)).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation')
  })

  it('accepts UTF-8 text, as text/csv when the name says .csv', async () => {
    expect(await detectContentType(Buffer.from('name,qty\nTöpfe,3\n'), 'stock.CSV')).toEqual({
      contentType: 'text/csv',
      isText: true,
    })
    expect(await type('Delivery notes: leave at the gate ✓\n', 'notes.txt')).toBe('text/plain')
    // A sample cut inside a multi-byte character is still text.
    expect(await type(Buffer.from('ab✓').subarray(0, 3))).toBe('text/plain')
  })

  it('refuses executables, archives, markup and binary or invalid text', async () => {
    expect(await type(ELF, 'photo.png')).toBeUndefined()
    expect(await type(WINDOWS_EXE, 'invoice.pdf')).toBeUndefined()
    expect(await type(PLAIN_ZIP, 'report.docx')).toBeUndefined()
    expect(await type(HTML, 'page.txt')).toBeUndefined()
    expect(await type('\uFEFF  \n<html><body>hi</body></html>')).toBeUndefined()
    expect(
      await type('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    ).toBeUndefined()
    expect(await type('<?xml version="1.0"?><note/>')).toBeUndefined()
    expect(await type('<!-- comment --><p>x</p>')).toBeUndefined()
    expect(await type('text with a NUL \0 byte')).toBeUndefined()
    expect(await type(Buffer.from([0x68, 0x69, 0xc3, 0x28]))).toBeUndefined() // invalid UTF-8
    expect(await type('a < b, and 3 > 2\n')).toBe('text/plain') // a "<" later in the text is fine
  })

  it('reads a bounded sample', () => {
    expect(DETECTION_SAMPLE_BYTES).toBe(65_536)
  })
})

describe('TextValidator (streaming UTF-8 check)', () => {
  it('accepts a character split across chunks and rejects NULs, bad bytes and a cut-off end', () => {
    const check = ['caf', 'é ✓'].map((s) => Buffer.from(s))
    const split = Buffer.concat(check)
    const valid = new TextValidator()
    expect(valid.accept(split.subarray(0, 4)) && valid.accept(split.subarray(4))).toBe(true)
    expect(valid.finish()).toBe(true)
    expect(new TextValidator().accept(Buffer.from('a\0b'))).toBe(false)
    expect(new TextValidator().accept(Buffer.from([0xff]))).toBe(false)
    const cut = new TextValidator()
    expect(cut.accept(Buffer.from('✓').subarray(0, 2))).toBe(true)
    expect(cut.finish()).toBe(false)
  })
})

describe('file names', () => {
  it('keeps only the last path segment, without control or invisible characters', () => {
    expect(sanitiseFileName('../../etc/passwd', '.txt')).toBe('passwd')
    expect(sanitiseFileName('..\\..\\windows\\system32\\evil.dll.png', '.png')).toBe('evil.dll.png')
    expect(sanitiseFileName('in\u0000voice\r\n\u0007.pdf', '.pdf')).toBe('invoice.pdf')
    expect(sanitiseFileName('photo\u202Egnp.exe', '.png')).toBe('photognp.exe') // no right-to-left override
    expect(sanitiseFileName('  report 2026.pdf  ', '.pdf')).toBe('report 2026.pdf')
    expect(sanitiseFileName('Lieferschein Müller ✓.pdf', '.pdf')).toBe('Lieferschein Müller ✓.pdf')
  })

  it('names a nameless or dots-only upload after its type, and cuts long names to 255 keeping the extension', () => {
    expect(sanitiseFileName(undefined, '.png')).toBe('file.png')
    expect(sanitiseFileName('..', '.pdf')).toBe('file.pdf')
    expect(sanitiseFileName('dir/', '')).toBe('file')
    const long = sanitiseFileName(`${'a'.repeat(300)}.xlsx`, '.xlsx')
    expect(long).toHaveLength(255)
    expect(long.endsWith('a.xlsx')).toBe(true)
    const emoji = sanitiseFileName('😀'.repeat(300), '')
    expect(Array.from(emoji)).toHaveLength(255) // cut by character, never inside a surrogate pair
  })

  it('encodes Content-Disposition per RFC 6266 / 5987 with an ASCII fallback', () => {
    expect(contentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    )
    expect(contentDisposition(`Müller "quote" (1)'s *.pdf`)).toBe(
      `attachment; filename="M_ller _quote_ (1)'s *.pdf"; filename*=UTF-8''M%C3%BCller%20%22quote%22%20%281%29%27s%20%2A.pdf`,
    )
  })
})
