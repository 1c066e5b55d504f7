import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import type { PageRequest } from './envelopes.js'
import { type ListQuery, pageOffset, pageRequest } from './list-params.js'
import { buildFilter, buildOrderBy, escapeLike, type FieldMap, type OrderTerm } from './odata/index.js'

/** What a resource exposes to the standard list parameters. */
export interface ListSpec {
  /** Fields `$filter` and `$orderby` may name (API name -> trusted column). */
  fields: FieldMap
  /** Columns `$search` matches, case-insensitively, as "contains". */
  search: readonly string[]
  /** Order when `$orderby` is absent. */
  defaultOrder: readonly OrderTerm[]
  /** A unique column appended to every order so pages never overlap or skip rows. */
  tiebreak: string
}

/** `$search`: every listed column, ILIKE '%text%' (the text matched literally), OR-ed together. */
export function searchCondition(text: string, columns: readonly string[]) {
  const pattern = `%${escapeLike(text.trim())}%`
  return sql<SqlBool>`(${sql.join(
    columns.map((c) => sql`${sql.ref(c)} ilike ${pattern} escape '\\'`),
    sql` or `,
  )})`
}

/**
 * Where a walk over every page (the CSV export) keeps its place: the sort values of the last row
 * read and the page they ended. Given with the query (`withListCursor`), it lets `runList` read the
 * next page by keyset (the rows after that row in the list's order) instead of OFFSET, so every page
 * costs the same however deep; the order is the list's own, so the rows are those the pages would give.
 */
export interface ListCursor {
  /** The page whose last row `after` describes. */
  page: number
  /** That row's order terms and tiebreak as text (exact: timestamps keep their microseconds). */
  after: readonly (string | null)[]
}

/** What the page's inner query adds to each row: its total, or (with a cursor) its sort values. */
type PageColumns = { __total?: number | string } & { [sortValue: `__o${number}`]: string | null }
// biome-ignore lint/suspicious/noExplicitAny: the inner and outer page queries select columns the scoped query's type does not know
type AnySelect = SelectQueryBuilder<any, any, any>

const LIST_CURSOR = Symbol('list cursor')
type CursorCarrier = { [LIST_CURSOR]?: ListCursor | undefined }

/** The query with a cursor `runList` reads and moves; spreads of the query (`{ ...query }`) keep it. */
export function withListCursor<Q extends ListQuery>(query: Q, cursor: ListCursor): Q {
  return { ...query, [LIST_CURSOR]: cursor }
}

/** Whether a walk over every page reads this query (then the pages should come from `runList`). */
export const hasListCursor = (query: ListQuery) => (query as CursorCarrier)[LIST_CURSOR] !== undefined

/** NULLs come last ascending and first descending (PostgreSQL's default, which the order uses). */
function strictlyAfter(term: OrderTerm, value: string | null) {
  const column = sql.ref(term.column)
  if (term.direction === 'asc')
    return value === null ? sql<SqlBool>`false` : sql<SqlBool>`(${column} > ${value} or ${column} is null)`
  return value === null ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`${column} < ${value}`
}

const sameAs = (term: OrderTerm, value: string | null) =>
  value === null
    ? sql<SqlBool>`${sql.ref(term.column)} is null`
    : sql<SqlBool>`${sql.ref(term.column)} = ${value}`

/**
 * The rows after `values` in the order of `terms` (the tiebreak last): for some term, every
 * earlier term equal and this one after. The values are text; PostgreSQL reads each as its
 * column's type. The first term's bound is repeated on its own so an index on it can be used.
 */
function keysetCondition(terms: readonly OrderTerm[], values: readonly (string | null)[]) {
  const alternatives = terms.map(
    (term, i) =>
      sql<SqlBool>`(${sql.join(
        [
          ...terms.slice(0, i).map((earlier, j) => sameAs(earlier, values[j] ?? null)),
          strictlyAfter(term, values[i] ?? null),
        ],
        sql` and `,
      )})`,
  )
  const [first] = terms
  const firstValue = values[0] ?? null
  const bound =
    first && firstValue !== null
      ? first.direction === 'desc'
        ? sql<SqlBool>`${sql.ref(first.column)} <= ${firstValue}`
        : sql<SqlBool>`(${sql.ref(first.column)} >= ${firstValue} or ${sql.ref(first.column)} is null)`
      : sql<SqlBool>`true`
  return sql<SqlBool>`(${bound} and (${sql.join(alternatives, sql` or `)}))`
}

/**
 * Applies `$filter`, `$search`, `$orderby` and paging to a query already scoped to the caller
 * (business, not deleted), and returns one page plus the total, in one statement: an inner query
 * chooses the page's keys (filter, order, limit, offset, the total from `count(*) over ()`) and the
 * scoped query's select list is computed only for those rows. PostgreSQL computes a select list for
 * every row an OFFSET skips and every row a window counts, so selecting it in the inner query made a
 * deep page read the children (correlated subqueries) of every row before it. Only a page past the
 * end needs a second (count) query.
 *
 * With a cursor (`withListCursor`) the next page is read by keyset, and no total is counted: the
 * total is then what the pages read so far show, plus one when another row follows (enough for
 * `hasMore`).
 */
export async function runList<DB, TB extends keyof DB, O>(
  scoped: SelectQueryBuilder<DB, TB, O>,
  query: ListQuery,
  spec: ListSpec,
  /** The total when nothing filters, read from where it is kept (instead of counting every row). */
  unfilteredTotal?: RawBuilder<number>,
): Promise<{ rows: O[]; total: number; page: PageRequest }> {
  const page = pageRequest(query)
  let filtered = scoped
  if (query.$filter?.trim()) filtered = filtered.where(buildFilter(query.$filter, spec.fields))
  if (query.$search?.trim()) filtered = filtered.where(searchCondition(query.$search, spec.search))
  const order = query.$orderby?.trim() ? buildOrderBy(query.$orderby, spec.fields) : spec.defaultOrder
  const terms: OrderTerm[] = [...order, { column: spec.tiebreak, direction: 'asc' }]
  const cursor = (query as CursorCarrier)[LIST_CURSOR]
  // Keyset only from the page after the one the cursor ended (page 0: nothing read yet).
  const after = cursor && cursor.page > 0 && cursor.page === page.page - 1 ? cursor.after : undefined

  // Untyped from here: the inner query's columns are not the scoped query's.
  let keys = (filtered as unknown as AnySelect).clearSelect().select(sql.ref(spec.tiebreak).as('__key'))
  if (cursor)
    keys = keys.select(
      terms.map((term, i) => sql<string | null>`${sql.ref(term.column)}::text`.as(`__o${i}`)),
    )
  const unfiltered = unfilteredTotal && !query.$filter?.trim() && !query.$search?.trim()
  if (!cursor)
    keys = keys.select(
      unfiltered ? unfilteredTotal.as('__total') : sql<number>`count(*) over ()`.as('__total'),
    )
  if (after) keys = keys.where(keysetCondition(terms, after))
  for (const term of terms) keys = keys.orderBy(sql.ref(term.column), term.direction)
  keys = keys.limit(cursor ? page.pageSize + 1 : page.pageSize).offset(after ? 0 : pageOffset(page))

  const built = terms.reduce(
    (outer, term) => outer.orderBy(sql.ref(term.column), term.direction),
    (scoped as unknown as AnySelect)
      .innerJoin(keys.as('__page'), (join) => join.on(sql<SqlBool>`__page.__key = ${sql.ref(spec.tiebreak)}`))
      .select(
        (cursor ? terms.map((_, i) => `__o${i}`) : ['__total']).map((name) =>
          sql.ref(`__page.${name}`).as(name),
        ),
      ),
  )
  let rows = (await built.execute()) as (O & PageColumns)[]
  let total: number
  if (cursor) {
    const more = rows.length > page.pageSize
    rows = rows.slice(0, page.pageSize)
    total = pageOffset(page) + rows.length + (more ? 1 : 0)
    const last = rows.at(-1)
    if (last) Object.assign(cursor, { page: page.page, after: terms.map((_, i) => last[`__o${i}`] ?? null) })
  } else {
    total = Number(rows[0]?.__total ?? 0)
    if (rows.length === 0 && page.page > 1) {
      const counted = (await filtered
        .clearSelect()
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirst()) as { n: number } | undefined
      total = Number(counted?.n ?? 0)
    }
  }
  for (const row of rows as Partial<PageColumns>[]) {
    delete row.__total
    for (let i = 0; i < terms.length; i++) delete row[`__o${i}`]
  }
  return { rows, total, page }
}
