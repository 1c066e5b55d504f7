import type { ListState } from '../lib/list-state'
import { type Column, DataTable } from './DataTable'
import { Pager } from './Pager'

/** What a PagedResult says about its page. */
export interface PagedRows<Row> {
  data: Row[]
  page: number
  finalPage: number
  totalCount: number
}

/**
 * One page of a list with sortable headers and the pager under it, both driven by the screen's
 * list state. `choosePageSize` offers the page sizes.
 */
export function PagedTable<Row>({
  label,
  result,
  list,
  columns,
  rowKey,
  empty,
  rowClass,
  choosePageSize = false,
}: {
  label: string
  result: PagedRows<Row>
  list: Pick<ListState, 'sort' | 'setSort' | 'pageSize' | 'setPage' | 'setPageSize'>
  columns: Column<Row>[]
  rowKey: (row: Row) => string
  empty?: string
  rowClass?: (row: Row) => string | undefined
  choosePageSize?: boolean
}) {
  return (
    <>
      <DataTable
        caption={label}
        rows={result.data}
        rowKey={rowKey}
        sort={list.sort}
        onSort={list.setSort}
        empty={empty}
        rowClass={rowClass}
        columns={columns}
      />
      <Pager
        label={label}
        page={result.page}
        finalPage={result.finalPage}
        totalCount={result.totalCount}
        pageSize={list.pageSize}
        onPage={list.setPage}
        onPageSize={choosePageSize ? list.setPageSize : undefined}
      />
    </>
  )
}
