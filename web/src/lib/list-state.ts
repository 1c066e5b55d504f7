import { useState } from 'react'
import { orderBy, type Sort } from '../components/DataTable'
import { useDebounced } from './hooks'

/** The Core API's standard list parameters, as the generated client takes them. */
export interface ListParameters {
  Page: number
  PageSize: number
  $search?: string
  $filter?: string
  $orderby?: string
}

/**
 * The state of a list screen: its search box, its filters, its order and its page. Any change but
 * the page's own goes back to page 1 (page 7 of the old filter means nothing under the new one).
 */
export function useListState<Filters extends Record<string, string>>(initial: {
  filters: Filters
  sort?: Sort | null
  pageSize?: number
}) {
  const [search, setSearch] = useState('')
  const [filters, setFilters] = useState(initial.filters)
  const [sort, setSort] = useState<Sort | null>(initial.sort ?? null)
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(initial.pageSize ?? 20)
  const term = useDebounced(search.trim())
  const fromPageOne =
    <T>(set: (value: T) => void) =>
    (value: T) => {
      set(value)
      setPage(1)
    }
  return {
    search,
    setSearch: fromPageOne(setSearch),
    /** The search as sent: trimmed, once typing has paused. */
    term,
    filters,
    setFilter: (name: keyof Filters, value: string) => {
      setFilters((current) => ({ ...current, [name]: value }))
      setPage(1)
    },
    sort,
    setSort: fromPageOne(setSort),
    page,
    setPage,
    pageSize,
    setPageSize: fromPageOne(setPageSize),
    /** The list parameters for this state, with the screen's `$filter` built from its filters. */
    parameters: (filter?: string): ListParameters => ({
      Page: page,
      PageSize: pageSize,
      ...(term ? { $search: term } : {}),
      ...(filter ? { $filter: filter } : {}),
      ...(sort ? { $orderby: orderBy(sort) ?? '' } : {}),
    }),
  }
}

export type ListState = ReturnType<typeof useListState>
