import { useState } from 'react'
import { ErrorNotice } from './ErrorNotice'

/** A button that fetches a file and hands it to the browser; while it works it says so, a failure is said beside it. */
export function DownloadButton({
  label,
  busyLabel,
  accessibleName,
  what,
  download,
}: {
  label: string
  busyLabel: string
  accessibleName?: string | undefined
  /** What failed, for the notice: "Downloading delivery note". */
  what: string
  download: () => Promise<void>
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const start = async () => {
    setBusy(true)
    setError(null)
    try {
      await download()
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
        aria-label={accessibleName}
        onClick={() => void start()}
      >
        {busy ? busyLabel : label}
      </button>
      {error ? <ErrorNotice error={error} what={what} /> : null}
    </>
  )
}
