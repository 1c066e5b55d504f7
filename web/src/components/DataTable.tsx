import type { HTMLAttributes, ReactNode } from 'react'

export interface Column<Row> {
  key: string
  header: string
  /** Shown in the header cell instead of the header text (a "choose all" box); header then names it. */
  headerContent?: ReactNode
  render: (row: Row) => ReactNode
  number?: boolean
  /** Keep on one line (codes, dates). */
  nowrap?: boolean
  /** The field name for $orderby; absent = not sortable. */
  sortField?: string
}

export interface Sort {
  field: string
  descending: boolean
}

export const orderBy = (sort: Sort | null) =>
  sort ? `${sort.field}${sort.descending ? ' desc' : ''}` : undefined

/** A plain, labelled table; sortable headers are buttons that say the order (aria-sort). */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  empty = 'Nothing to show.',
  rowClass,
  rowProps,
}: {
  caption: string
  columns: Column<Row>[]
  rows: readonly Row[]
  rowKey: (row: Row) => string
  sort?: Sort | null
  onSort?: (sort: Sort) => void
  empty?: string
  rowClass?: (row: Row) => string | undefined
  /** Further attributes of a row's <tr> (a drag source and target). */
  rowProps?: (row: Row, index: number) => HTMLAttributes<HTMLTableRowElement>
}) {
  return (
    // A table wider than the screen scrolls sideways: the region takes focus so the keyboard can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section className="table-wrap" aria-label={caption} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const active = sort && column.sortField === sort.field
              const ariaSort = active ? (sort.descending ? 'descending' : 'ascending') : undefined
              return (
                <th
                  key={column.key}
                  scope="col"
                  className={column.number ? 'number' : undefined}
                  aria-sort={ariaSort}
                >
                  {column.sortField && onSort ? (
                    <button
                      type="button"
                      className="sort"
                      onClick={() =>
                        onSort({
                          field: column.sortField as string,
                          descending: active ? !sort.descending : false,
                        })
                      }
                    >
                      {column.header}
                      <span aria-hidden="true">{active ? (sort.descending ? ' ▼' : ' ▲') : ' ↕'}</span>
                    </button>
                  ) : (
                    (column.headerContent ?? column.header)
                  )}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="muted">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row, index) => (
              <tr key={rowKey(row)} className={rowClass?.(row)} {...rowProps?.(row, index)}>
                {columns.map((column) => (
                  <td
                    key={column.key}
                    className={
                      [column.number && 'number', column.nowrap && 'nowrap'].filter(Boolean).join(' ') ||
                      undefined
                    }
                  >
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  )
}
