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
 * Applies `$filter`, `$search`, `$orderby` and paging to a query already scoped to the caller
 * (business, not deleted), and returns one page plus the total, in one round trip: the total
 * comes from `count(*) over ()` on the same statement. Only a page past the end needs a second
 * (count) query.
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
  let ordered = filtered
  for (const term of order) ordered = ordered.orderBy(sql.ref(term.column), term.direction)
  ordered = ordered.orderBy(sql.ref(spec.tiebreak))
  const unfiltered = unfilteredTotal && !query.$filter?.trim() && !query.$search?.trim()
  const rows = (await ordered
    .select(unfiltered ? unfilteredTotal.as('__total') : sql<number>`count(*) over ()`.as('__total'))
    .limit(page.pageSize)
    .offset(pageOffset(page))
    .execute()) as (O & { __total: number })[]
  let total = Number(rows[0]?.__total ?? 0)
  if (rows.length === 0 && page.page > 1) {
    const counted = (await filtered.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirst()) as
      | { n: number }
      | undefined
    total = Number(counted?.n ?? 0)
  }
  for (const row of rows) delete (row as Partial<{ __total: number }>).__total
  return { rows, total, page }
}
