import { useEffect, useState } from 'react'
import { orderBy, type Sort } from '../components/DataTable'
import { setHashQuery, useHashQuery } from './hash-location'
import { useDebounced } from './hooks'

/** The Core API's standard list parameters, as the generated client takes them. */
export interface ListParameters {
  Page: number
  PageSize: number
  $search?: string
  $filter?: string
  $orderby?: string
}

/** Changes some of the address's query, keeping the rest and the route. */
function update(changes: Record<string, string | null>, replace = false) {
  const next = new URLSearchParams(window.location.hash.replace(/^#[^?]*\??/, ''))
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) next.delete(name)
    else next.set(name, value)
  }
  setHashQuery(next, { replace })
}

const positive = (text: string | null): number | undefined => {
  const n = Number(text)
  return text && Number.isInteger(n) && n > 0 && n <= 10_000 ? n : undefined
}

/** A sort as written in the address: `name` ascending, `-name` descending. */
export const sortParam = (sort: Sort | null) => (sort ? `${sort.descending ? '-' : ''}${sort.field}` : '')
export const sortFrom = (text: string | null): Sort | null =>
  text && /^-?[A-Za-z][\w/]*$/.test(text)
    ? { field: text.replace(/^-/, ''), descending: text.startsWith('-') }
    : null

/**
 * The state of a list screen: its search box, its filters, its order and its page, kept in the
 * address (`#/customers?q=bree&status=Active&sort=-name&page=2`), so Back, a reload and a shared
 * link show the same list. Any change but the page's own goes back to page 1 (page 7 of the old
 * filter means nothing under the new one). A value equal to the screen's default is left out.
 */
export function useListState<Filters extends Record<string, string>>(initial: {
  filters: Filters
  sort?: Sort | null
  pageSize?: number
}) {
  const params = useHashQuery()
  const defaultSize = initial.pageSize ?? 20
  const filters = Object.fromEntries(
    Object.entries(initial.filters).map(([name, value]) => [name, params.get(name) ?? value]),
  ) as Filters
  const sort = params.has('sort') ? sortFrom(params.get('sort')) : (initial.sort ?? null)
  const page = positive(params.get('page')) ?? 1
  const pageSize = positive(params.get('size')) ?? defaultSize
  const urlTerm = params.get('q') ?? ''

  // The box follows typing at once; the address (and the request) once typing pauses.
  const [search, setSearchText] = useState(urlTerm)
  const term = useDebounced(search.trim())
  useEffect(() => {
    setSearchText((current) => (current.trim() === urlTerm ? current : urlTerm))
  }, [urlTerm])

  // Only a settled search changes the address; the address's own changes come in through urlTerm.
  // biome-ignore lint/correctness/useExhaustiveDependencies: urlTerm is read, not followed
  useEffect(() => {
    if (term !== urlTerm) update({ q: term || null, page: null }, true)
  }, [term])

  return {
    search,
    setSearch: setSearchText,
    /** The search as sent: trimmed, once typing has paused. */
    term: urlTerm,
    filters,
    setFilter: (name: keyof Filters, value: string) =>
      update({ [name as string]: value === initial.filters[name] ? null : value, page: null }),
    sort,
    setSort: (next: Sort | null) => {
      const written = sortParam(next)
      update({ sort: written === sortParam(initial.sort ?? null) ? null : written, page: null })
    },
    page,
    setPage: (next: number) => update({ page: next === 1 ? null : String(next) }),
    pageSize,
    setPageSize: (next: number) => update({ size: next === defaultSize ? null : String(next), page: null }),
    /** The list parameters for this state, with the screen's `$filter` built from its filters. */
    parameters: (filter?: string): ListParameters => ({
      Page: page,
      PageSize: pageSize,
      ...(urlTerm ? { $search: urlTerm } : {}),
      ...(filter ? { $filter: filter } : {}),
      ...(sort ? { $orderby: orderBy(sort) ?? '' } : {}),
    }),
  }
}

export type ListState = ReturnType<typeof useListState>
