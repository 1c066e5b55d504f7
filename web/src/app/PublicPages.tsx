import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { ApiError } from '../api/errors'
import {
  completeInvitation,
  forgotPassword,
  resetPassword,
  verifyByToken,
} from '../api/generated/global/sdk.gen'
import { ErrorNotice } from '../components/ErrorNotice'
import { Field } from '../components/Field'
import { Loading } from '../components/Loading'
import { mergedProblems } from '../lib/form-errors'
import { useConsole } from './session-context'

/** The pages someone reaches from an email, signed in or not. */
export const PUBLIC_PATHS = ['/accept-invitation', '/reset-password', '/forgot-password', '/verify-email']

/** The query of the address's fragment (`#/reset-password?token=...`). */
function hashParams(): URLSearchParams {
  const hash = window.location.hash
  const at = hash.indexOf('?')
  return new URLSearchParams(at < 0 ? '' : hash.slice(at + 1))
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${title} · Cartage`
    heading.current?.focus()
  }, [title])
  return (
    <main className="signin">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </main>
  )
}

const passwordProblem = (password: string, email = ''): string | undefined =>
  password.length < 8
    ? 'At least 8 characters.'
    : email && password.trim().toLowerCase() === email.trim().toLowerCase()
      ? 'Not your email address.'
      : undefined

export function PublicPage({ path }: { path: string }) {
  if (path === '/accept-invitation') return <AcceptInvitation />
  if (path === '/reset-password') return <ResetPassword />
  if (path === '/forgot-password') return <ForgotPassword />
  return <VerifyEmail />
}

function AcceptInvitation() {
  const { session } = useConsole()
  const [, navigate] = useLocation()
  const [params] = useState(hashParams)
  const token = params.get('token') ?? ''
  const businessId = params.get('business') ?? ''
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [terms, setTerms] = useState(false)
  const [local, setLocal] = useState<Record<string, string>>({})
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const problems = mergedProblems(local, error)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) found.email = 'Enter the address the invitation was sent to.'
    const weak = passwordProblem(password, email)
    if (weak) found.password = weak
    if (!terms) found.acceptedTerms = 'Accept the terms to join.'
    setLocal(found)
    setError(null)
    if (Object.keys(found).length > 0) return
    setBusy(true)
    try {
      await completeInvitation({
        path: { businessId },
        query: { token },
        body: { email: email.trim(), password, acceptedTerms: true },
        throwOnError: true,
      })
      // Joined: sign in with what was just typed, and open the console.
      navigate('/', { replace: true })
      await session.signIn(email.trim(), password)
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }

  if (!token || !/^[0-9a-f-]{36}$/i.test(businessId))
    return (
      <Frame title="Accept an invitation">
        <div className="notice error" role="alert">
          <p className="title">This invitation link is incomplete</p>
          <p>Open the link from the invitation email again, whole, or ask to be invited again.</p>
        </div>
        <Link href="/">Sign in</Link>
      </Frame>
    )
  return (
    <Frame title="Accept an invitation">
      <p className="muted">
        Choose your password to join. If you already have a Cartage account, enter its current password.
      </p>
      {error ? <ErrorNotice error={error} what="Accepting the invitation" /> : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Email" hint="The address the invitation was sent to" problem={problems.email}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <Field label="Password" hint="At least 8 characters, not your email" problem={problems.password}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        <Field label="I accept the terms of use" problem={problems.acceptedTerms}>
          {(control) => (
            <input
              {...control}
              type="checkbox"
              checked={terms}
              onChange={(event) => setTerms(event.target.checked)}
            />
          )}
        </Field>
        {problems.token && (
          <p className="problem" role="alert">
            The link: {problems.token} Ask to be invited again for a new link.
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Joining…' : 'Join'}
        </button>
      </form>
    </Frame>
  )
}

function ResetPassword() {
  const [params] = useState(hashParams)
  const token = params.get('token') ?? ''
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const [local, setLocal] = useState<Record<string, string>>({})
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState(false)
  const [busy, setBusy] = useState(false)
  const problems = mergedProblems(local, error)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    const weak = passwordProblem(password)
    if (weak) found.password = weak
    else if (again !== password) found.again = 'The two passwords differ.'
    setLocal(found)
    setError(null)
    if (Object.keys(found).length > 0) return
    setBusy(true)
    try {
      await resetPassword({ body: { token, password }, throwOnError: true })
      setDone(true)
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }

  if (done)
    return (
      <Frame title="Password changed">
        <div className="notice ok" role="status">
          Your password is changed and every earlier session has ended.
        </div>
        <Link href="/">Sign in with the new password</Link>
      </Frame>
    )
  if (!token)
    return (
      <Frame title="Choose a new password">
        <div className="notice error" role="alert">
          <p className="title">This reset link is incomplete</p>
          <p>Open the link from the email again, whole, or ask for a new one.</p>
        </div>
        <Link href="/forgot-password">Ask for a new link</Link>
      </Frame>
    )
  return (
    <Frame title="Choose a new password">
      {error ? <ErrorNotice error={error} what="Changing the password" /> : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="New password" hint="At least 8 characters, not your email" problem={problems.password}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        <Field label="New password again" problem={problems.again}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              value={again}
              onChange={(event) => setAgain(event.target.value)}
            />
          )}
        </Field>
        {problems.token && (
          <p className="problem" role="alert">
            The link: {problems.token} <Link href="/forgot-password">Ask for a new link</Link>.
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </Frame>
  )
}

function ForgotPassword() {
  const [email, setEmail] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const [error, setError] = useState<unknown>(null)
  const [sent, setSent] = useState(false)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const bad = /^\S+@\S+\.\S+$/.test(email.trim()) ? undefined : 'Enter your email address.'
    setProblem(bad)
    setError(null)
    if (bad) return
    setBusy(true)
    try {
      await forgotPassword({ body: { email: email.trim() }, throwOnError: true })
      setSent(true)
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }
  if (sent)
    return (
      <Frame title="Check your email">
        <div className="notice ok" role="status">
          If {email.trim()} has a Cartage account, a link to choose a new password is on its way. It works
          once, within 30 minutes.
        </div>
        <Link href="/">Back to sign-in</Link>
      </Frame>
    )
  return (
    <Frame title="Forgot your password?">
      <p className="muted">We email you a link to choose a new one.</p>
      {error ? <ErrorNotice error={error} what="Asking for a reset link" /> : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Email" problem={problem ?? mergedProblems({}, error).email}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Sending…' : 'Email me a link'}
        </button>
      </form>
      <Link href="/">Back to sign-in</Link>
    </Frame>
  )
}

// A verification token works once: React's development double effect (and a re-render) must not
// spend it twice, so one request per token per page load.
const verifications = new Map<string, Promise<unknown>>()

function VerifyEmail() {
  const [params] = useState(hashParams)
  const token = params.get('token') ?? ''
  const [outcome, setOutcome] = useState<'pending' | 'verified' | 'refused' | 'failed'>('pending')
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    let current = true
    if (!token) {
      setOutcome('refused')
      return
    }
    let request = verifications.get(token)
    if (!request) {
      request = verifyByToken({ query: { token }, throwOnError: true })
      verifications.set(token, request)
    }
    request.then(
      () => current && setOutcome('verified'),
      (caught: unknown) => {
        if (!current) return
        setError(caught)
        setOutcome(caught instanceof ApiError && caught.status === 400 ? 'refused' : 'failed')
      },
    )
    return () => {
      current = false
    }
  }, [token])
  return (
    <Frame title="Verify your email address">
      {outcome === 'pending' ? (
        <Loading label="Verifying…" />
      ) : outcome === 'verified' ? (
        <div className="notice ok" role="status">
          Your email address is verified.
        </div>
      ) : outcome === 'refused' ? (
        <div className="notice error" role="alert">
          <p className="title">This verification link is no longer valid</p>
          <p>It was used already, has expired (after 24 hours), or is incomplete.</p>
        </div>
      ) : (
        <ErrorNotice error={error} what="Verifying the address" />
      )}
      <Link href="/">Open the console</Link>
    </Frame>
  )
}
