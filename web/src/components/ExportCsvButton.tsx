import { downloadFile } from '../lib/documents'
import { DownloadButton } from './DownloadButton'

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
  const { Page: _page, PageSize: _size, ...selection } = query as Record<string, unknown>
  return (
    <DownloadButton
      label="Export CSV"
      busyLabel="Exporting…"
      what="Exporting the list"
      download={() => downloadFile(url, fileName, { ...selection, $format: 'csv' })}
    />
  )
}
