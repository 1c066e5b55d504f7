import { contentDisposition } from './file-name.js'

/**
 * The headers a stored file is sent with: its detected type, its exact length, an attachment
 * with its stored name, and nothing the content may run or load.
 */
export function downloadHeaders(file: { content_type: string; size_bytes: number; file_name: string }) {
  return {
    'content-type': file.content_type.startsWith('text/')
      ? `${file.content_type}; charset=utf-8`
      : file.content_type,
    'content-length': String(file.size_bytes),
    'content-disposition': contentDisposition(file.file_name),
    'x-content-type-options': 'nosniff',
    // Even if opened in a browser tab, the content may not run scripts or load anything.
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-cache',
  }
}
