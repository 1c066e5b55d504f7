import { Type } from '@sinclair/typebox'
import type { AppDeps } from '../../../apps/deps.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ForgotPasswordRequest, ResetPasswordRequest } from './passwords.schemas.js'
import { forgotPassword, resetPassword } from './passwords.service.js'

export function registerPasswordRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/auth/forgot-password',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'ForgotPassword',
        summary: 'Email a password-reset link',
        description:
          'Not an operation of the earlier platform; it is how the token that ResetPassword needs is obtained. Always answers `true` with the same body, ' +
          'whether or not the address is registered. When it is, a link valid for 30 minutes is emailed. ' +
          'Rate limited per client IP and per email address (429 with Retry-After).',
        tags: ['Auth'],
        security: [],
        body: ForgotPasswordRequest,
        response: { 200: SingleResult('global', Type.Boolean()), ...errorResponses('global', 400, 429) },
      },
    },
    async (request) =>
      single('global', await forgotPassword(deps, request.body.email, request.ip, request.log)),
  )

  app.post(
    '/api/auth/reset-password',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'ResetPassword',
        summary: 'Set a new password with the token from the reset link',
        description:
          'The token works once and for 30 minutes. The password follows the registration policy (at least 8 characters, not the email). ' +
          'On success the address counts as verified and every session of the user ends (refresh tokens at once, access tokens within a second). ' +
          'A missing, unknown, used or expired token is a 400 naming `token`. Rate limited per client IP.',
        tags: ['Auth'],
        security: [],
        body: ResetPasswordRequest,
        response: { 200: SingleResult('global', Type.Boolean()), ...errorResponses('global', 400, 429) },
      },
    },
    async (request) =>
      single('global', await resetPassword(deps, request.body.token, request.body.password, request.ip)),
  )
}
