import { Type } from '@sinclair/typebox'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { ForgotPasswordRequest, ResetPasswordRequest } from './passwords.schemas.js'
import { forgotPassword, resetPassword } from './passwords.service.js'

const TAGS = ['Auth']
const DONE = SingleResult('global', Type.Boolean())

export function registerPasswordRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/auth/forgot-password',
    operation(
      { public: true },
      {
        api: 'global',
        operationId: 'ForgotPassword',
        summary: 'Email a password-reset link',
        description:
          'Not an operation of the earlier platform; it is how the token that ResetPassword needs is obtained. Always answers `true` with the same body, ' +
          'whether or not the address is registered. When it is, a link valid for 30 minutes is emailed. ' +
          'Rate limited per client IP and per email address (429 with Retry-After).',
        tags: TAGS,
        body: ForgotPasswordRequest,
        response: DONE,
        errors: [400, 429],
      },
    ),
    async (request) =>
      single('global', await forgotPassword(deps, request.body.email, request.ip, request.log)),
  )

  app.post(
    '/api/auth/reset-password',
    operation(
      { public: true },
      {
        api: 'global',
        operationId: 'ResetPassword',
        summary: 'Set a new password with the token from the reset link',
        description:
          'The token works once and for 30 minutes. The password follows the registration policy (at least 8 characters, not the email). ' +
          'On success the address counts as verified and every session of the user ends (refresh tokens at once, access tokens within a second). ' +
          'A missing, unknown, used or expired token is a 400 naming `token`. Rate limited per client IP.',
        tags: TAGS,
        body: ResetPasswordRequest,
        response: DONE,
        errors: [400, 429],
      },
    ),
    async (request) =>
      single('global', await resetPassword(deps, request.body.token, request.body.password, request.ip)),
  )
}
