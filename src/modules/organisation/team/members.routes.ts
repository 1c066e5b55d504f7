import { Type } from '@sinclair/typebox'
import { authOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { changeRole, listMembers, removeMember } from './members.service.js'
import { ChangeRoleRequest, MemberParams, TeamMember } from './team.schemas.js'

const TAGS = ['Team']

export function registerMemberRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/team/members',
    operation(['TeamAndRoles', 'View'], {
      operationId: 'GetTeamMembers',
      summary: "The organisation's members, active and invited",
      description:
        '$filter and $orderby over email, firstName, lastName, role, status, dateCreated; $search matches name or email.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', TeamMember),
      errors: [400],
    }),
    async (request) => listMembers(database, authOf(request), request.query),
  )

  app.put(
    '/api/team/members/:userId/role',
    operation(['TeamAndRoles', 'Modify'], {
      operationId: 'ChangeTeamMemberRole',
      summary: "Change a member's role",
      description:
        'customRoleId is required with role Custom and names a role of this organisation. Only an owner may grant or take away Owner (403 owner_required; an owner’s API key gets 403 api_key_not_allowed); ' +
        'a non-owner (an owner’s API key too) may not grant rights they lack (403 permission_exceeds_caller); the last active owner cannot be demoted (409 last_owner). ' +
        "The member's new rights apply within a second.",
      tags: TAGS,
      params: MemberParams,
      body: ChangeRoleRequest,
      response: SingleResult('core', TeamMember),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await changeRole(database, authOf(request), request.params.userId, request.body)),
  )

  app.delete(
    '/api/team/members/:userId',
    operation(['TeamAndRoles', 'Delete'], {
      operationId: 'RemoveTeamMember',
      summary: 'Remove a member from the organisation',
      description:
        "Ends the member's sessions in this organisation (refused within a second) and revokes the API keys they created here. " +
        'Only an owner may remove an owner (403 owner_required; an owner’s API key gets 403 api_key_not_allowed); the last active owner cannot be removed (409 last_owner). Removing yourself is allowed.',
      tags: TAGS,
      params: MemberParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404, 409],
    }),
    async (request) => single('core', await removeMember(database, authOf(request), request.params.userId)),
  )
}
