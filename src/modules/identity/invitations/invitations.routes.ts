import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { InvitationResponse, InviteTeamMemberRequest } from './invitations.schemas.js'
import { inviteTeamMember } from './invitations.service.js'

/** Core API: inviting people into the caller's organisation. */
export function registerInvitationRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/team/invitations',
    operation(['TeamAndRoles', 'Modify'], {
      operationId: 'InviteTeamMember',
      summary: 'Invite someone to the organisation by email',
      description:
        'Creates the user when the address is new (without a password) and an Invited membership, and emails a link valid for 7 days to ' +
        '`<app>/complete-invitation/<X-Business-Id>?token=<token>`. Only an owner, signed in, may invite an Owner (403 owner_required; an API key gets 403 api_key_not_allowed), and an API key invites no one with rights beyond its scopes (403 permission_exceeds_caller). Custom needs `customRoleId`, a role of ' +
        'this organisation. An active member is a 409 `already_member`; inviting someone still Invited sends a new link (earlier links stop working) ' +
        'with the new role. A 503 `mail_not_sent` means the invitation is saved but the email failed: invite again.',
      tags: ['Team'],
      body: InviteTeamMemberRequest,
      response: SingleResult('core', InvitationResponse),
      errors: [400, 409, 503],
    }),
    async (request) =>
      single('core', await inviteTeamMember(deps, businessAuthOf(request), request.body, request.log)),
  )
}
