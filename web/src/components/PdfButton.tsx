import { useState } from 'react'
import { downloadPdf } from '../lib/documents'
import { ErrorNotice } from './ErrorNotice'

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
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const open = async () => {
    setBusy(true)
    setError(null)
    try {
      await downloadPdf(url, fileName)
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={busy}
        aria-label={accessibleName ? `${accessibleName} (PDF)` : undefined}
        onClick={() => void open()}
      >
        {busy ? 'Preparing…' : `${label} (PDF)`}
      </button>
      {error ? <ErrorNotice error={error} what={`Downloading ${label.toLowerCase()}`} /> : null}
    </>
  )
}
