import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { Router, useLocation } from 'wouter'
import { configureClients } from '../api/clients'
import { type ConsoleConfig, loadConsoleConfig } from '../api/config'
import { ApiError } from '../api/errors'
import { SessionManager } from '../api/session'
import { ErrorNotice } from '../components/ErrorNotice'
import { Loading } from '../components/Loading'
import { useHashPath } from '../lib/hash-location'
import { PUBLIC_PATHS, PublicPage } from './PublicPages'
import { loadDashboard } from './routes'
import { SignIn } from './SignIn'
import { ConsoleContext, useSessionState } from './session-context'
import { Workspace } from './Workspace'

function newQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // A 4xx will not change by asking again; a network failure or a 5xx may. While the
        // database is away (503 database_unavailable) keep asking, at most every 5 s, for minutes.
        retry: (failures, error) =>
          error instanceof ApiError && error.code === 'database_unavailable'
            ? failures < 60
            : failures < 2 && !(error instanceof ApiError && error.status < 500),
        retryDelay: (attempt) => Math.min(300 * 2 ** attempt, 5_000),
        refetchOnWindowFocus: false,
      },
    },
  })
}

/** Loads the server's console config, restores the session (or takes a hand-off), then shows the console. */
export function App({ handoffToken }: { handoffToken: string | null }) {
  const session = useMemo(() => new SessionManager(), [])
  const [config, setConfig] = useState<ConsoleConfig | null>(null)
  const [failure, setFailure] = useState<unknown>(null)
  const [attempt, setAttempt] = useState(0)

  // The dashboard is the first screen after signing in: its code loads while the session is restored.
  useEffect(() => {
    void loadDashboard()
  }, [])

  useEffect(() => {
    let cancelled = false
    loadConsoleConfig().then(
      (loaded) => {
        if (cancelled) return
        configureClients(loaded, session)
        setConfig(loaded)
        if (loaded.globalApiUrl) void session.start(attempt === 0 ? handoffToken : null)
        else session.backToSignIn()
      },
      (error: unknown) => !cancelled && setFailure(error),
    )
    return () => {
      cancelled = true
    }
  }, [session, handoffToken, attempt])

  if (failure)
    return (
      <main className="signin">
        <ErrorNotice
          error={failure}
          what="Starting the console"
          onRetry={() => {
            setFailure(null)
            setAttempt((n) => n + 1)
          }}
        />
      </main>
    )
  if (!config)
    return (
      <main className="signin">
        <Loading label="Starting the console…" />
      </main>
    )
  return (
    <ConsoleContext.Provider value={{ session, config }}>
      <Router hook={useHashPath}>
        <Entry session={session} />
      </Router>
    </ConsoleContext.Provider>
  )
}

/** The pages opened from an email's link work signed in or not; everything else is the console. */
function Entry({ session }: { session: SessionManager }) {
  const [location] = useLocation()
  // The hash location carries the fragment's query (`/reset-password?token=…`).
  const path = location.split('?')[0] ?? ''
  if (PUBLIC_PATHS.includes(path)) return <PublicPage path={path} />
  return <Console session={session} />
}

function Console({ session }: { session: SessionManager }) {
  const state = useSessionState(session)
  // One cache per signed-in organisation: nothing read for one person or organisation outlives it.
  const organizationId = state.status === 'signedIn' ? state.organization.id : null
  const queryClient = useMemo(() => (organizationId ? newQueryClient() : null), [organizationId])
  if (state.status === 'starting')
    return (
      <main className="signin">
        <Loading label="Signing you in…" />
      </main>
    )
  if (state.status !== 'signedIn' || !queryClient)
    return <SignIn state={state as Parameters<typeof SignIn>[0]['state']} />
  return (
    <QueryClientProvider client={queryClient}>
      <Workspace organizationId={state.organization.id} handedOffBusinessId={state.handedOffBusinessId} />
    </QueryClientProvider>
  )
}
