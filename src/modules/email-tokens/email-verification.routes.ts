import type { AppDeps } from '../../apps/deps.js'
import { errorResponses } from '../../http/error-responses.js'
import type { HttpApp } from '../../http/kernel.js'
import { NoBody, VerifyByTokenQuery } from './email-verification.schemas.js'
import { verifyEmailByToken } from './email-verification.service.js'

export function registerEmailVerificationRoutes(app: HttpApp, deps: AppDeps) {
  app.get(
    '/api/auth/verify-by-token',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'VerifyByToken',
        summary: 'Verify an email address with the token from the emailed link',
        description:
          'The link is emailed at registration and is valid for 24 hours, once. Success is HTTP 200 with an empty body (the spec says "no body"). ' +
          'A missing, unknown, used or expired token is a 400 naming `token`.',
        tags: ['Auth'],
        security: [],
        querystring: VerifyByTokenQuery,
        response: { 200: NoBody, ...errorResponses('global', 400) },
      },
    },
    async (request, reply) => {
      await verifyEmailByToken(deps, request.query.token)
      return reply.code(200).send()
    },
  )
}
