import { sendHtmlPage, wantsHtml } from '../../../http/html-pages.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { EmailVerified, TokenRefused, VerifyByTokenQuery } from './email-verification.schemas.js'
import { verifyEmailByToken } from './email-verification.service.js'
import { verifyForBrowser } from './verification-page.js'

export function registerEmailVerificationRoutes(app: HttpApp, deps: AppDeps) {
  const route = operation(
    { public: true },
    {
      api: 'global',
      operationId: 'VerifyByToken',
      summary: 'Verify an email address with the token from the emailed link',
      description:
        'The link is emailed at registration and is valid for 24 hours, once. Success is HTTP 200 with an empty body. ' +
        'A missing, unknown, used or expired token is a 400 naming `token`. ' +
        'Opened in a browser (`Accept: text/html`) it answers a short HTML page instead, saying the address is verified (200) or the link is no longer valid (400).',
      tags: ['Auth'],
      querystring: VerifyByTokenQuery,
      response: EmailVerified,
      errors: [400],
    },
  )
  app.get(
    '/api/auth/verify-by-token',
    // A 400 is problem details, or for a browser a page: the route declares both bodies.
    { ...route, schema: { ...route.schema, response: { ...route.schema.response, 400: TokenRefused } } },
    async (request, reply) => {
      // Someone who clicked the emailed link sees a page; API clients keep the contract's empty 200.
      if (!wantsHtml(request)) {
        await verifyEmailByToken(deps, request.query.token)
        return reply.code(200).send()
      }
      const { status, html } = await verifyForBrowser(deps, request.query.token)
      return sendHtmlPage(reply, status, html)
    },
  )
}
