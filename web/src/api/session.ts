import { ApiError, describeError, NetworkError } from './errors'
import { login, logout, newToken, redeemOneTimeToken, selectOrganization } from './generated/global/sdk.gen'
import type { LoginResponse, SessionResponse } from './generated/global/types.gen'

export type Organization = SessionResponse['organization']
export type OrganizationChoice = NonNullable<LoginResponse['organizations']>[number]

export type SessionState =
  | { status: 'starting' }
  | { status: 'signedOut'; notice: string | null }
  | {
      status: 'choosingOrganization'
      selectionToken: string
      expiresAt: number
      organizations: OrganizationChoice[]
    }
  | {
      status: 'signedIn'
      organization: Organization
      /** The business a one-time-token hand-off named; the console starts there. */
      handedOffBusinessId: string | null
    }

/** Renew this long before the access token expires. */
const RENEW_AHEAD_MS = 60_000

/**
 * The signed-in session: the access token lives in memory only (a reload renews it with the
 * HttpOnly refresh cookie), renewals are single-flight in this tab and serialised across tabs (a
 * refresh token is single use: two tabs renewing with the same cookie would end the session).
 */
export class SessionManager {
  private state: SessionState = { status: 'starting' }
  private readonly listeners = new Set<(state: SessionState) => void>()
  private accessToken: string | null = null
  private expiresAt = 0
  private renewing: Promise<string> | null = null
  private started = false
  private timer: ReturnType<typeof setTimeout> | undefined
  /** The business requests act in (X-Business-Id); chosen by the workspace once /api/me is known. */
  businessId: string | null = null

  get current(): SessionState {
    return this.state
  }

  subscribe(listener: (state: SessionState) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private set(state: SessionState) {
    this.state = state
    for (const listener of this.listeners) listener(state)
  }

  private adopt(session: SessionResponse, handedOffBusinessId: string | null = session.businessId) {
    this.accessToken = session.accessToken
    this.expiresAt = Date.parse(session.expiresAtUtc)
    clearTimeout(this.timer)
    const wait = Math.max(5_000, this.expiresAt - Date.now() - RENEW_AHEAD_MS)
    this.timer = setTimeout(() => void this.renew().catch(() => undefined), wait)
    const current = this.state
    const sameOrganization =
      current.status === 'signedIn' && current.organization.id === session.organization.id
    if (!sameOrganization || current.status !== 'signedIn')
      this.set({ status: 'signedIn', organization: session.organization, handedOffBusinessId })
  }

  /** On load: a hand-off token if the URL carried one, else the refresh cookie, else the sign-in form. */
  async start(handoffToken: string | null): Promise<void> {
    if (this.state.status !== 'starting' || this.started) return
    this.started = true
    if (handoffToken) {
      try {
        const { data } = await redeemOneTimeToken({ body: { token: handoffToken }, throwOnError: true })
        this.adopt(data.data, data.data.businessId)
        return
      } catch (error) {
        this.set({
          status: 'signedOut',
          notice:
            error instanceof ApiError && error.status < 500
              ? 'That hand-off link has expired or was used already (they work once, within 60 seconds). Sign in instead.'
              : describeError(error).title,
        })
        return
      }
    }
    try {
      await this.renew()
    } catch (error) {
      // No cookie, or an ended session: simply the sign-in form. A server that cannot be reached is worth saying.
      this.set({
        status: 'signedOut',
        notice:
          error instanceof NetworkError
            ? `${describeError(error).title}. ${describeError(error).action}`
            : null,
      })
    }
  }

  /** Signs in; a person in several organisations is asked which one (state `choosingOrganization`). */
  async signIn(email: string, password: string): Promise<void> {
    const { data } = await login({ body: { email, password }, throwOnError: true })
    const answer = data.data
    if (answer.session) return this.adopt(answer.session)
    if (answer.selectionToken && answer.organizations)
      this.set({
        status: 'choosingOrganization',
        selectionToken: answer.selectionToken,
        expiresAt: Date.parse(answer.selectionExpiresAtUtc ?? '') || Date.now() + 300_000,
        organizations: answer.organizations,
      })
  }

  async chooseOrganization(organizationId: string): Promise<void> {
    const state = this.state
    if (state.status !== 'choosingOrganization') return
    const { data } = await selectOrganization({
      body: { organizationId },
      headers: { authorization: `Bearer ${state.selectionToken}` },
      throwOnError: true,
    })
    this.adopt(data.data, null)
  }

  backToSignIn(notice: string | null = null) {
    this.set({ status: 'signedOut', notice })
  }

  /** A valid access token, renewed first when it is about to expire. */
  async token(): Promise<string> {
    if (this.accessToken && this.expiresAt - Date.now() > 30_000) return this.accessToken
    return this.renew()
  }

  /** New access token from the refresh cookie; one renewal at a time, in this tab and across tabs. */
  renew(): Promise<string> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = null
    })
    return this.renewing
  }

  private async renewOnce(): Promise<string> {
    const run = async () => {
      const { data } = await newToken({ throwOnError: true })
      this.adopt(
        data.data,
        this.state.status === 'signedIn' ? this.state.handedOffBusinessId : data.data.businessId,
      )
      return data.data.accessToken
    }
    try {
      return await (typeof navigator !== 'undefined' && navigator.locks
        ? navigator.locks.request('cartage-session-renewal', run)
        : run())
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        this.ended('Your session has ended (it expired, or you signed out elsewhere). Sign in again.')
      }
      throw error
    }
  }

  /** The server no longer accepts the session. */
  ended(notice: string) {
    this.forget()
    if (this.state.status === 'signedIn') this.set({ status: 'signedOut', notice })
  }

  private forget() {
    clearTimeout(this.timer)
    this.accessToken = null
    this.expiresAt = 0
    this.businessId = null
  }

  async signOut(): Promise<void> {
    const token = this.accessToken
    this.forget()
    try {
      // Ends the session on the server and clears the refresh cookie.
      if (token) await logout({ headers: { authorization: `Bearer ${token}` }, throwOnError: true })
    } finally {
      this.set({ status: 'signedOut', notice: 'You are signed out.' })
    }
  }
}
