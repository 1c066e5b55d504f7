import { useState } from 'react'
import { downloadFile } from '../lib/documents'
import { ErrorNotice } from './ErrorNotice'

/**
 * Downloads everything a list's search and filters select, on all its pages, as CSV: the server
 * streams it (`$format=csv`), the page and page size of the screen are not what is exported.
 */
export function ExportCsvButton({
  url,
  query,
  fileName,
}: {
  /** The list operation's path, e.g. `/api/v1/Customers`. */
  url: string
  /** The list's parameters as the screen sends them ($filter, $orderby, $search). */
  query: object
  fileName: string
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const exportAll = async () => {
    setBusy(true)
    setError(null)
    try {
      const { Page: _page, PageSize: _size, ...selection } = query as Record<string, unknown>
      await downloadFile(url, fileName, { ...selection, $format: 'csv' })
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button type="button" className="secondary" disabled={busy} onClick={() => void exportAll()}>
        {busy ? 'Exporting…' : 'Export CSV'}
      </button>
      {error ? <ErrorNotice error={error} what="Exporting the list" /> : null}
    </>
  )
}
