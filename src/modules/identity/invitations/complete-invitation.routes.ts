import { Type } from '@sinclair/typebox'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { completeInvitation } from './complete-invitation.service.js'
import {
  CompleteInvitationParams,
  CompleteInvitationQuery,
  CompleteInvitationRequest,
} from './invitations.schemas.js'

/** Global API: the invited person accepts. */
export function registerCompleteInvitationRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/auth/complete-invitation/:businessId',
    operation(
      { public: true },
      {
        api: 'global',
        operationId: 'CompleteInvitation',
        summary: 'Accept an invitation: set the password, verify the address, activate the membership',
        description:
          "Security addition to the earlier platform's operation: its CompleteInvitationRequest carries no secret, so knowing an invited address would be enough to take the " +
          'account. The invitation token from the emailed link is therefore required, as query `token` (as in the link) or body field `token`; ' +
          'without it the answer is 400 naming `token`, as for an unknown, used or expired one. The body `email` must be the invited address (400 ' +
          'naming `email`). A new user sets `password` (at least 8 characters, not the email); a user who already has a password (invited to a ' +
          'further organisation) sends their current one, which stays unchanged (400 naming `password` when wrong). `acceptedTerms: false` is refused. ' +
          '`businessId` is kept for URL compatibility and is not used. The token works once. Rate limited per client IP.',
        tags: ['Auth'],
        params: CompleteInvitationParams,
        querystring: CompleteInvitationQuery,
        body: CompleteInvitationRequest,
        response: SingleResult('global', Type.Boolean()),
        errors: [400, 429],
      },
    ),
    async (request) =>
      single(
        'global',
        await completeInvitation(deps, request.query.token || request.body.token, request.body, request.ip),
      ),
  )
}
