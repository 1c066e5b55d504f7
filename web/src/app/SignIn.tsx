import { type FormEvent, useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import type { SessionState } from '../api/session'
import { ErrorNotice } from '../components/ErrorNotice'
import { Field } from '../components/Field'
import { useConsole } from './session-context'

/** Email and password; then, for a person in several organisations, which one to open. */
export function SignIn({
  state,
}: {
  state: Extract<SessionState, { status: 'signedOut' | 'choosingOrganization' }>
}) {
  const { session, config } = useConsole()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    document.title = 'Sign in · Cartage'
  }, [])
  useEffect(() => {
    if (state.status === 'choosingOrganization') heading.current?.focus()
  }, [state.status])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await session.signIn(email.trim(), password)
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }

  const choose = async (organizationId: string) => {
    setBusy(true)
    setError(null)
    try {
      await session.chooseOrganization(organizationId)
    } catch (caught) {
      setError(caught)
      setBusy(false)
    }
  }

  if (!config.globalApiUrl)
    return (
      <main className="signin">
        <h1>Cartage console</h1>
        <div className="notice error" role="alert">
          <p className="title">The sign-in service's address is not known</p>
          <p>
            The server could not tell where its Global API is. Set CONSOLE_GLOBAL_API_URL (and GLOBAL_PORT) on
            the server, restart it, then reload this page.
          </p>
        </div>
      </main>
    )

  if (state.status === 'choosingOrganization')
    return (
      <main className="signin">
        <h1 ref={heading} tabIndex={-1}>
          Choose an organisation
        </h1>
        <p className="muted">You belong to several organisations. Which one do you want to open?</p>
        {error ? <ErrorNotice error={error} what="Opening the organisation" /> : null}
        <ul className="org-choices">
          {state.organizations.map((organization) => (
            <li key={organization.id}>
              <button
                type="button"
                className="secondary"
                disabled={busy}
                onClick={() => void choose(organization.id)}
              >
                <span>{organization.name}</span>
                <span className="muted">{organization.isOwner ? 'Owner' : 'Member'}</span>
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="link" onClick={() => session.backToSignIn()}>
          Sign in as someone else
        </button>
      </main>
    )

  return (
    <main className="signin">
      <h1>Sign in to Cartage</h1>
      <p className="muted">Planning, stock, manufacturing and delivery for your businesses.</p>
      {state.notice && (
        <div className="notice info" role="status">
          {state.notice}
        </div>
      )}
      {error ? <ErrorNotice error={error} what="Signing in" /> : null}
      <form onSubmit={(event) => void submit(event)} noValidate={false}>
        <Field label="Email">
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <Field label="Password">
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
    </main>
  )
}
