import { authOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { SessionResponse, setRefreshCookie } from '../auth/index.js'
import {
  MintOneTimeTokenRequest,
  OneTimeTokenResponse,
  RedeemOneTimeTokenRequest,
} from './one-time-tokens.schemas.js'
import { mintOneTimeToken, redeemOneTimeToken } from './one-time-tokens.service.js'

const TAGS = ['Auth']

export function registerOneTimeTokenRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/auth/ott',
    operation(
      {
        signedIn: true,
        business: false,
        personOnly:
          'An API key cannot mint one-time tokens: a hand-off passes a person’s session on, and a key has no person behind it.',
      },
      {
        api: 'global',
        operationId: 'MintOneTimeToken',
        summary: 'Mint a one-time token that hands the caller’s session to another application',
        description:
          'Any signed-in member, by bearer token. The token works once, within 60 seconds. ' +
          '`businessId` must be a business of the caller’s organisation; a session from a one-time token may only name its own business (403 business_not_accessible). ' +
          'The redeemed session carries the caller’s scopes, so it never has more rights than the minter.',
        tags: TAGS,
        body: MintOneTimeTokenRequest,
        response: SingleResult('global', OneTimeTokenResponse),
        errors: [400, 403],
      },
    ),
    async (request) => single('global', await mintOneTimeToken(deps, authOf(request), request.body)),
  )

  app.post(
    '/api/auth/ott/redeem',
    operation(
      { public: true },
      {
        api: 'global',
        operationId: 'RedeemOneTimeToken',
        summary: 'Exchange a one-time token for a session in its business',
        description:
          'No authentication. The first redemption wins: an unknown, used or expired token is 401 invalid_one_time_token. ' +
          'Answers a session with `businessId` set and sets the refresh cookie; its access token works on the Core API without X-Business-Id (it is bound to that business). ' +
          'Rate limited per client IP.',
        tags: TAGS,
        body: RedeemOneTimeTokenRequest,
        response: SingleResult('global', SessionResponse),
        errors: [400, 401, 429],
      },
    ),
    async (request, reply) => {
      const issued = await redeemOneTimeToken(deps, request.body.token, request.ip)
      setRefreshCookie(reply, deps.config, issued.refreshToken, issued.refreshExpiresAt)
      return single('global', issued.session)
    },
  )
}
