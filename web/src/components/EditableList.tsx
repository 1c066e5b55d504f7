import { type ReactNode, useState } from 'react'
import { PageHeader } from './PageHeader'

/**
 * A page of things added and edited in place: the title with its "New …" button, the note of the
 * last change, the form (for a new one or the one being edited) above the list.
 */
export function EditableList<Row>({
  title,
  newLabel,
  canAdd,
  rowKey,
  form,
  children,
}: {
  title: string
  newLabel: string
  canAdd: boolean
  rowKey: (row: Row) => string
  /** The form for a new row (null) or the one edited; `done` closes it, with a note to show or none. */
  form: (row: Row | null, done: (note: string | null) => void) => ReactNode
  /** The page's body (its table): `edit` opens the form on a row, `say` shows a note. */
  children: (actions: { edit: (row: Row) => void; say: (note: string) => void }) => ReactNode
}) {
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const open = (row: Row | null) => {
    setNote(null)
    setEditing({ row })
  }
  return (
    <>
      <PageHeader title={title}>
        {canAdd && !editing && (
          <button type="button" onClick={() => open(null)}>
            {newLabel}
          </button>
        )}
      </PageHeader>
      {note && (
        <div className="notice ok" role="status">
          {note}
        </div>
      )}
      {editing && (
        <div key={editing.row === null ? 'new' : rowKey(editing.row)}>
          {form(editing.row, (done) => {
            setEditing(null)
            if (done) setNote(done)
          })}
        </div>
      )}
      {children({ edit: open, say: setNote })}
    </>
  )
}

/** A form's submit and Cancel buttons. */
export function FormButtons({
  label,
  pending,
  onCancel,
}: {
  label: string
  pending: boolean
  onCancel: () => void
}) {
  return (
    <div className="actions">
      <button type="submit" disabled={pending}>
        {label}
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  )
}
