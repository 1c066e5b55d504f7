import { downloadFile } from '../lib/documents'
import { DownloadButton } from './DownloadButton'

/** A button that downloads one PDF document; a failure is said in words beside it. */
export function PdfButton({
  url,
  fileName,
  label,
  accessibleName,
}: {
  url: string
  fileName: string
  label: string
  /** When the visible label alone is ambiguous (one per row): "Delivery note of SHP-000004". */
  accessibleName?: string
}) {
  return (
    <DownloadButton
      label={`${label} (PDF)`}
      busyLabel="Preparing…"
      accessibleName={accessibleName ? `${accessibleName} (PDF)` : undefined}
      what={`Downloading ${label.toLowerCase()}`}
      download={() => downloadFile(url, fileName)}
    />
  )
}
