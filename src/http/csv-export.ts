import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { EnumType } from './enums.js'

/** Rows fetched per statement while a list is exported: memory stays flat however long the list. */
export const CSV_PAGE_SIZE = 1_000

export const CSV_EXPORT_DESCRIPTION =
  '`csv`: every item the list parameters select, on all pages (Page and PageSize are ignored), as a CSV download ' +
  'streamed a page at a time (the API guide\'s "Exporting a list" says how cells are written). Default `json`: this page.'

type Schema = Record<string, unknown>
const isObject = (value: unknown): value is Schema => value !== null && typeof value === 'object'

/** The item schema of a list route's paged answer, or undefined when the route is not a list. */
function listItemSchema(route: RouteOptions): Schema | undefined {
  if (route.method !== 'GET' || !isObject(route.config) || !('access' in route.config)) return undefined
  const schema = route.schema as { querystring?: unknown; response?: Record<string, unknown> } | undefined
  const query = schema?.querystring
  const properties = isObject(query) && isObject(query.properties) ? query.properties : undefined
  if (!properties || !('PageSize' in properties) || !('$filter' in properties)) return undefined
  const ok = schema?.response?.['200']
  if (!isObject(ok) || !isObject(ok.properties) || !('totalCount' in ok.properties)) return undefined
  const data = ok.properties.data
  return isObject(data) && isObject(data.items) ? data.items : undefined
}

/** The object member of a schema that may be null (`anyOf: [object, null]`), or the schema itself. */
function objectOf(schema: unknown): Schema | undefined {
  if (!isObject(schema)) return undefined
  if (isObject(schema.properties)) return schema
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : []
  return members.map(objectOf).find((member) => member !== undefined)
}

/** One column: its header and how to read its value from an item. */
interface Column {
  header: string
  read(item: Schema): unknown
}

/** Top-level fields as columns; an object field's own fields as `parent.child` columns. */
function columnsOf(item: Schema): Column[] {
  const columns: Column[] = []
  for (const [name, field] of Object.entries(objectOf(item)?.properties ?? {})) {
    const nested = objectOf(field)
    if (!nested || !isObject(nested.properties) || Object.keys(nested.properties).length === 0) {
      columns.push({ header: name, read: (row) => row[name] })
      continue
    }
    for (const child of Object.keys(nested.properties))
      columns.push({
        header: `${name}.${child}`,
        read: (row) => {
          const parent = row[name]
          return isObject(parent) ? parent[child] : undefined
        },
      })
  }
  return columns
}

const NEEDS_QUOTES = /[",\r\n]/
/** A formula to a spreadsheet (OWASP's CSV injection), unless the text is a plain number. */
const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/

/** One CSV cell: empty for null, lists and objects as JSON, text quoted where it must be. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text: string
  if (typeof value === 'string') {
    text = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value
  } else if (typeof value === 'object') text = JSON.stringify(value)
  else text = String(value)
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const csvLine = (cells: readonly unknown[]) => `${cells.map(csvCell).join(',')}\r\n`

interface Page {
  data: Schema[]
  hasMore: boolean
}

type Handler = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown

/** Rows per chunk written: a page goes out in several writes, none of them large. */
const CSV_CHUNK_ROWS = 100

/**
 * A page's rows as CSV text, in chunks of CSV_CHUNK_ROWS rows: flat strings (joined, not built by
 * `+=`, which would keep every piece of each line until the chunk is written).
 */
function pageText(columns: readonly Column[], rows: readonly Schema[]): string[] {
  const chunks: string[] = []
  for (let at = 0; at < rows.length; at += CSV_CHUNK_ROWS) {
    const lines: string[] = []
    for (let i = at; i < Math.min(at + CSV_CHUNK_ROWS, rows.length); i++)
      lines.push(csvLine(columns.map((c) => c.read(rows[i] as Schema))))
    chunks.push(lines.join(''))
  }
  return chunks
}

/**
 * The header row, then each page's rows as they are read, one statement per page. A page is
 * turned into text as soon as it arrives and its rows dropped before the first chunk is written:
 * rows kept while a slow client drains the chunks outlive V8's young generation, and promoted
 * garbage (the rows, their JSON children, the driver's parse) grew the heap with the export's
 * length until a full collection. The text left waiting is a fraction of the rows' size.
 */
async function* csvRows(
  columns: readonly Column[],
  first: { chunks: string[]; hasMore: boolean },
  next: (page: number) => Promise<Page>,
) {
  yield `\uFEFF${csvLine(columns.map((column) => column.header))}`
  let { chunks, hasMore } = first
  for (let number = 2; ; number++) {
    for (const chunk of chunks) yield chunk
    if (!hasMore) return
    const page = await next(number)
    hasMore = page.hasMore
    chunks = pageText(columns, page.data)
  }
}

/**
 * `$format=csv` on every list operation (a GET whose query takes the standard list parameters and
 * whose answer is a PagedResult): the whole selection as a CSV download, read a page of
 * CSV_PAGE_SIZE at a time through the operation's own handler, so the export filters, sorts,
 * scopes and checks access exactly as the list does. Declared per route at start-up, before the
 * unknown-query rule reads the route's parameters.
 */
export function installCsvExport(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const item = listItemSchema(route)
    if (!item) return
    const schema = route.schema as {
      querystring: Schema
      response: Record<string, unknown>
      operationId?: string
    }
    const query = schema.querystring
    // A copy: list routes share their query schema object.
    schema.querystring = {
      ...query,
      properties: {
        ...(query.properties as Schema),
        $format: EnumType(['json', 'csv'], { description: CSV_EXPORT_DESCRIPTION }),
      },
    }
    const paged = schema.response['200']
    schema.response = {
      ...schema.response,
      200: {
        content: {
          'application/json': { schema: paged },
          'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV, a header row first' } },
        },
      },
    }
    const columns = columnsOf(item)
    const fileName = `${(schema.operationId ?? 'export').replace(/^GetAll|^Get|^List/, '') || 'export'}.csv`
    const handler = route.handler as Handler
    route.handler = async function exportOrAnswer(this: FastifyInstance, request, reply) {
      const asked = request.query as Schema
      if (asked.$format !== 'csv') return handler.call(this, request, reply)
      const pageOf = async (page: number) => {
        // The operation's own handler, on a request that asks for one large page.
        const pageRequest = Object.create(request, {
          query: { value: { ...asked, $format: 'json', Page: page, PageSize: CSV_PAGE_SIZE } },
        }) as FastifyRequest
        return (await handler.call(this, pageRequest, reply)) as Page
      }
      // The first page before any header: a refused filter is still a 400 in the API's shape.
      const firstPage = await pageOf(1)
      const first = { chunks: pageText(columns, firstPage.data), hasMore: firstPage.hasMore }
      void reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
      // One chunk ahead of the client at most: Readable.from would buffer 16 by default.
      return reply.send(Readable.from(csvRows(columns, first, pageOf), { highWaterMark: 1 }))
    }
  })
}
