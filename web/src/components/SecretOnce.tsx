import { useEffect, useRef, useState } from 'react'

/**
 * A secret the server shows in one answer only: the value, a copy button and a warning that it will
 * not be shown again. It lives in this component's state alone (never logged, never cached), so
 * leaving the page or reloading it loses it for good.
 */
export function SecretOnce({
  title,
  label,
  secret,
  onDone,
}: {
  title: string
  label: string
  secret: string
  onDone: () => void
}) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  const box = useRef<HTMLElement>(null)
  useEffect(() => {
    box.current?.focus()
  }, [])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret)
      setCopied('yes')
    } catch {
      setCopied('no')
    }
  }
  return (
    <section className="notice warn" aria-labelledby="secret-once-title" tabIndex={-1} ref={box}>
      <p className="title" id="secret-once-title">
        {title}
      </p>
      <p>Copy it now and keep it somewhere safe: it will not be shown again.</p>
      <p>
        <label>
          {label} <input className="mono" readOnly value={secret} size={Math.min(secret.length, 60)} />
        </label>
      </p>
      <div className="actions">
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          I have kept it
        </button>
      </div>
      <p aria-live="polite">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'no'
            ? 'Copying failed: select it and copy.'
            : ''}
      </p>
    </section>
  )
}
