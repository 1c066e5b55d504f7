import type { ConsoleConfig } from './config'
import { ApiError, apiErrorFrom, NetworkError } from './errors'
import { client as coreClient } from './generated/core/client.gen'
import { client as globalClient } from './generated/global/client.gen'
import type { SessionManager } from './session'

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError'

/** Every failure becomes an ApiError (with the status) or a NetworkError; a cancelled request stays one. */
function installErrors(client: typeof coreClient, service: string) {
  client.interceptors.error.use((error, response) => {
    if (response) return apiErrorFrom(error, response)
    return isAbort(error) ? error : new NetworkError(service)
  })
}

async function isExpiredToken(response: Response): Promise<boolean> {
  if (response.status !== 401 && response.status !== 403) return false
  try {
    const body = (await response.clone().json()) as { code?: unknown }
    return body.code === 'token_expired'
  } catch {
    return false
  }
}

/**
 * The Core API's fetch: the session's bearer token and the chosen business on every request; an
 * expired token is renewed once and the request sent again; an answer that says the session is
 * gone ends it (back to the sign-in form).
 */
export function coreFetch(
  session: Pick<SessionManager, 'token' | 'renew' | 'ended' | 'businessId'>,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init)
    const again = request.clone()
    const send = async (req: Request, token: string) => {
      req.headers.set('authorization', `Bearer ${token}`)
      if (session.businessId && !req.headers.has('x-business-id'))
        req.headers.set('x-business-id', session.businessId)
      return fetch(req)
    }
    let response = await send(request, await session.token())
    if (await isExpiredToken(response)) response = await send(again, await session.renew())
    if (response.status === 401) {
      const body = (await response
        .clone()
        .json()
        .catch(() => ({}))) as { code?: string }
      // A business the person may no longer use is a 401 too; that one is the workspace's to handle.
      if (body.code !== 'business_not_accessible')
        session.ended('Your session has ended (it expired, or you signed out elsewhere). Sign in again.')
    }
    return response
  }
}

export function configureClients(config: ConsoleConfig, session: SessionManager): void {
  globalClient.setConfig({
    baseUrl: config.globalApiUrl ?? '',
    // The refresh cookie travels to the Global API (another origin) only with credentials.
    credentials: 'include',
  })
  coreClient.setConfig({ baseUrl: '', fetch: coreFetch(session) })
  installErrors(coreClient, 'Core API')
  installErrors(globalClient as unknown as typeof coreClient, 'Global API (sign-in)')
}

export { ApiError, coreClient, globalClient }
