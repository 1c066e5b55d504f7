import { client } from '../api/generated/core/client.gen'

/**
 * Fetches a file the Core API answers (a document's PDF, a list's CSV; `query` as its parameters)
 * with the session's credentials and hands it to the browser as a download saved as `fileName`: a
 * plain link would carry no bearer token.
 */
export async function downloadFile(
  url: string,
  fileName: string,
  query?: Record<string, unknown>,
): Promise<void> {
  const { data } = await client.get<{ 200: Blob }, unknown, true>({
    url,
    ...(query ? { query } : {}),
    parseAs: 'blob',
    throwOnError: true,
  })
  const href = URL.createObjectURL(data)
  const link = document.createElement('a')
  link.href = href
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
}

/** The file name of a document: its kind and the record's code, e.g. `delivery-note-SHP-000004.pdf`. */
export function pdfName(kind: string, code: string): string {
  const safe = code.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')
  return `${kind}${safe ? `-${safe}` : ''}.pdf`
}
