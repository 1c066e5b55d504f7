import { useState } from 'react'

/** A "Remove" button that asks once more ("Yes, remove …" or "Keep") before it acts. */
export function ConfirmRemove({
  name,
  disabled,
  onConfirm,
}: {
  /** What is removed, as the user knows it ("DHL Express"). */
  name: string
  disabled?: boolean
  onConfirm: () => void
}) {
  const [asking, setAsking] = useState(false)
  if (!asking)
    return (
      <button type="button" className="link" aria-label={`Remove ${name}`} onClick={() => setAsking(true)}>
        Remove
      </button>
    )
  return (
    <span className="actions">
      <button
        type="button"
        className="danger"
        disabled={disabled}
        onClick={() => {
          setAsking(false)
          onConfirm()
        }}
      >
        Yes, remove {name}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  )
}

/** A row's "Edit" and "Remove" (each only when given). */
export function EditOrRemove({
  name,
  removing,
  onEdit,
  onRemove,
}: {
  name: string
  removing: boolean
  onEdit?: (() => void) | undefined
  onRemove?: (() => void) | undefined
}) {
  return (
    <span className="actions">
      {onEdit && (
        <button type="button" className="link" aria-label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </button>
      )}
      {onRemove && <ConfirmRemove name={name} disabled={removing} onConfirm={onRemove} />}
    </span>
  )
}
