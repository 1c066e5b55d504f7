import { defineModule } from '../../../platform/module.js'
import { registerCompleteInvitationRoutes } from './complete-invitation.routes.js'
import { registerInvitationRoutes } from './invitations.routes.js'

/** Invitations: a member invites someone (Core API, Team), who completes it with a password (Global API). */
export const invitationsModule = defineModule({
  name: 'identity/invitations',
  core: {
    routes: registerInvitationRoutes,
  },
  global: {
    routes: registerCompleteInvitationRoutes,
  },
  schemaNames: {
    CompleteInvitation: { body: 'CompleteInvitationRequest' },
    InviteTeamMember: { body: 'InviteTeamMemberCommand', data: 'InvitationResponse' },
  },
})
