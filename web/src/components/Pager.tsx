import { useId } from 'react'
import { integer } from '../lib/format'

/** Previous / next over a PagedResult, with the page size to choose. */
export function Pager({
  page,
  finalPage,
  totalCount,
  pageSize,
  onPage,
  onPageSize,
  label,
}: {
  page: number
  finalPage: number
  totalCount: number
  pageSize: number
  onPage: (page: number) => void
  onPageSize?: (size: number) => void
  label: string
}) {
  const sizeId = useId()
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {integer(page)} of {integer(Math.max(finalPage, 1))} · {integer(totalCount)} in all
      </span>
      <button
        type="button"
        className="secondary"
        disabled={page >= finalPage}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
      {onPageSize && (
        <span>
          <label htmlFor={sizeId}>Per page </label>
          <select id={sizeId} value={pageSize} onChange={(event) => onPageSize(Number(event.target.value))}>
            {[10, 20, 50, 100].map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </span>
      )}
    </nav>
  )
}
