import { type FormEvent, useId, useState } from 'react'
import { ErrorNotice } from '../components/ErrorNotice'
import { Field } from '../components/Field'
import { problemsOf } from '../lib/form-errors'
import { useConsole } from './session-context'
import { useWorkspace } from './workspace-context'

/** Another of the person's organisations, opened after the password is confirmed; no sign-out. */
export function SwitchOrganization() {
  const { session } = useConsole()
  const { me } = useWorkspace()
  const [open, setOpen] = useState(false)
  const others = me.organizations.filter((o) => o.id !== me.organization.id)
  const [target, setTarget] = useState(others[0]?.id ?? '')
  const [password, setPassword] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const headingId = useId()
  if (others.length === 0) return null

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setProblem(password ? undefined : 'Enter your password.')
    setError(null)
    if (!password) return
    setBusy(true)
    try {
      await session.switchOrganization(me.user.email, password, target)
    } catch (caught) {
      setError(caught)
      setBusy(false)
    }
  }

  if (!open)
    return (
      <button type="button" className="link" onClick={() => setOpen(true)}>
        Switch organisation
      </button>
    )
  return (
    <form
      className="card switch-org"
      aria-labelledby={headingId}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <h2 id={headingId}>Switch organisation</h2>
      {error ? <ErrorNotice error={error} what="Switching organisation" /> : null}
      <Field label="Open">
        {(control) => (
          <select {...control} value={target} onChange={(event) => setTarget(event.target.value)}>
            {others.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Your password" hint="Confirms it is you" problem={problem ?? problemsOf(error).password}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      <div className="actions">
        <button type="submit" disabled={busy || !target}>
          {busy ? 'Switching…' : 'Switch'}
        </button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}
