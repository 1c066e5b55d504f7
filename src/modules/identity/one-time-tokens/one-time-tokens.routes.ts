import { authOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import type { AppDeps } from '../../../platform/deps.js'
import { SessionResponse } from '../auth/auth.schemas.js'
import { setRefreshCookie } from '../auth/refresh-cookie.js'
import {
  MintOneTimeTokenRequest,
  OneTimeTokenResponse,
  RedeemOneTimeTokenRequest,
} from './one-time-tokens.schemas.js'
import { mintOneTimeToken, redeemOneTimeToken } from './one-time-tokens.service.js'

const SIGNED_IN: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKey: [] }]

export function registerOneTimeTokenRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/auth/ott',
    {
      config: { access: { signedIn: true, business: false } },
      schema: {
        operationId: 'MintOneTimeToken',
        summary: 'Mint a one-time token that hands the caller’s session to another application',
        description:
          'Any signed-in member, by bearer token or API key. The token works once, within 60 seconds. ' +
          '`businessId` must be a business of the caller’s organisation; a key (or a session from a one-time token) may only name its own business (403 business_not_accessible). ' +
          'The redeemed session carries the caller’s scopes, so it never has more rights than the minter.',
        tags: ['Auth'],
        security: SIGNED_IN,
        body: MintOneTimeTokenRequest,
        response: {
          200: SingleResult('global', OneTimeTokenResponse),
          ...errorResponses('global', 400, 401, 403),
        },
      },
    },
    async (request) => single('global', await mintOneTimeToken(deps, authOf(request), request.body)),
  )

  app.post(
    '/api/auth/ott/redeem',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'RedeemOneTimeToken',
        summary: 'Exchange a one-time token for a session in its business',
        description:
          'No authentication. The first redemption wins: an unknown, used or expired token is 401 invalid_one_time_token. ' +
          'Answers a session with `businessId` set and sets the refresh cookie; its access token works on the Core API without X-Business-Id (it is bound to that business). ' +
          'Rate limited per client IP.',
        tags: ['Auth'],
        security: [],
        body: RedeemOneTimeTokenRequest,
        response: {
          200: SingleResult('global', SessionResponse),
          ...errorResponses('global', 400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const issued = await redeemOneTimeToken(deps, request.body.token, request.ip)
      setRefreshCookie(reply, deps.config, issued.refreshToken, issued.refreshExpiresAt)
      return single('global', issued.session)
    },
  )
}
