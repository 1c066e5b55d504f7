import { Type } from '@sinclair/typebox'
import type { FastifyReply } from 'fastify'
import PDFDocument from 'pdfkit'

/**
 * Printable documents (delivery notes, route sheets, pick lists, purchase orders) drawn with
 * pdfkit's built-in Helvetica: no font files to ship, and text a PDF extractor reads back as is.
 * A document is a title, facts (label and value), tables and images, laid out top to bottom
 * with page breaks between table rows.
 */
export interface PdfColumn {
  header: string
  /** A share of the page's width; the columns' shares are scaled to fill it. */
  width: number
  align?: 'left' | 'right'
}

export interface PdfTable {
  heading?: string
  columns: readonly PdfColumn[]
  rows: readonly (readonly string[])[]
  /** Printed under the rows, right-aligned (a total, say). */
  footer?: string
}

export interface PdfImage {
  label: string
  /** PNG or JPEG bytes. */
  data: Buffer
}

export interface PdfSpec {
  title: string
  subtitle?: string
  facts?: readonly (readonly [string, string])[]
  tables?: readonly PdfTable[]
  images?: readonly PdfImage[]
  notes?: readonly string[]
}

/** The operation's 200 in the OpenAPI document: `application/pdf`. */
export const PdfContent = Type.Unsafe<Buffer>({
  description: 'The document (PDF)',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
})

const MARGIN = 50
const ROW_GAP = 4

export function renderPdf(spec: PdfSpec): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: spec.title, Producer: 'Cartage' },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const width = doc.page.width - 2 * MARGIN
  const bottom = () => doc.page.height - MARGIN

  doc.font('Helvetica-Bold').fontSize(18).text(spec.title)
  if (spec.subtitle)
    doc.font('Helvetica').fontSize(11).fillColor('#444').text(spec.subtitle).fillColor('black')
  doc.moveDown(0.5)
  doc.fontSize(10)
  for (const [label, value] of spec.facts ?? []) {
    doc
      .font('Helvetica-Bold')
      .text(`${label}: `, { continued: true })
      .font('Helvetica')
      .text(value || '-')
  }
  for (const table of spec.tables ?? []) {
    doc.moveDown(0.8)
    if (table.heading) doc.font('Helvetica-Bold').fontSize(12).text(table.heading).fontSize(10).moveDown(0.3)
    const total = table.columns.reduce((sum, c) => sum + c.width, 0)
    const widths = table.columns.map((c) => (c.width / total) * width)
    const drawRow = (cells: readonly string[], bold: boolean) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica')
      const height = Math.max(
        ...cells.map((cell, i) => doc.heightOfString(cell || ' ', { width: (widths[i] ?? 0) - 4 })),
      )
      if (doc.y + height > bottom()) doc.addPage()
      const y = doc.y
      let x = MARGIN
      cells.forEach((cell, i) => {
        const w = widths[i] ?? 0
        doc.text(cell, x, y, { width: w - 4, align: table.columns[i]?.align ?? 'left' })
        x += w
      })
      doc.x = MARGIN
      doc.y = y + height + ROW_GAP
    }
    drawRow(
      table.columns.map((c) => c.header),
      true,
    )
    doc
      .moveTo(MARGIN, doc.y - 2)
      .lineTo(MARGIN + width, doc.y - 2)
      .stroke()
    for (const row of table.rows) drawRow(row, false)
    if (table.footer) doc.font('Helvetica-Bold').text(table.footer, MARGIN, doc.y, { width, align: 'right' })
  }
  for (const image of spec.images ?? []) {
    if (doc.y + 140 > bottom()) doc.addPage()
    doc.moveDown(0.8).font('Helvetica-Bold').text(image.label, MARGIN)
    try {
      doc.image(image.data, { fit: [220, 110] })
    } catch {
      // A file that is not a PNG or JPEG pdfkit can read: say so rather than fail the document.
      doc.font('Helvetica').text('(image not printable)')
    }
    doc.x = MARGIN
  }
  if (spec.notes?.length) {
    doc.moveDown(0.8).font('Helvetica').fontSize(9)
    for (const note of spec.notes) doc.text(note, MARGIN, doc.y, { width })
  }
  doc.end()
  return done
}

/** Sends a document inline (a browser shows it), named for a download. */
export function sendPdf(reply: FastifyReply, fileName: string, pdf: Buffer) {
  return reply
    .type('application/pdf')
    .header('content-disposition', `inline; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
    .send(pdf)
}
