import { Type } from '@sinclair/typebox'
import { authOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { changeRole, listMembers, removeMember } from './members.service.js'
import { ChangeRoleRequest, MemberParams, TeamMember } from './team.schemas.js'

export function registerMemberRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/team/members',
    {
      config: { access: { permission: ['TeamAndRoles', 'View'] } },
      schema: {
        operationId: 'GetTeamMembers',
        summary: "The organisation's members, active and invited",
        description:
          '$filter and $orderby over email, firstName, lastName, role, status, dateCreated; $search matches name or email.',
        tags: ['Team'],
        security: CORE_SECURITY,
        querystring: ListQuery,
        response: { 200: PagedResult('core', TeamMember), ...errorResponses('core', 400, 401, 403) },
      },
    },
    async (request) => listMembers(database, authOf(request), request.query),
  )

  app.put(
    '/api/team/members/:userId/role',
    {
      config: { access: { permission: ['TeamAndRoles', 'Modify'] } },
      schema: {
        operationId: 'ChangeTeamMemberRole',
        summary: "Change a member's role",
        description:
          'customRoleId is required with role Custom and names a role of this organisation. Only an owner may grant or take away Owner (403 owner_required); ' +
          'a non-owner may not grant rights they lack (403 permission_exceeds_caller); the last active owner cannot be demoted (409 last_owner). ' +
          "The member's new rights apply within a second.",
        tags: ['Team'],
        security: CORE_SECURITY,
        params: MemberParams,
        body: ChangeRoleRequest,
        response: {
          200: SingleResult('core', TeamMember),
          ...errorResponses('core', 400, 401, 403, 404, 409),
        },
      },
    },
    async (request) =>
      single('core', await changeRole(database, authOf(request), request.params.userId, request.body)),
  )

  app.delete(
    '/api/team/members/:userId',
    {
      config: { access: { permission: ['TeamAndRoles', 'Delete'] } },
      schema: {
        operationId: 'RemoveTeamMember',
        summary: 'Remove a member from the organisation',
        description:
          "Ends the member's sessions in this organisation (refused within a second) and revokes the API keys they created here. " +
          'Only an owner may remove an owner (403 owner_required); the last active owner cannot be removed (409 last_owner). Removing yourself is allowed.',
        tags: ['Team'],
        security: CORE_SECURITY,
        params: MemberParams,
        response: {
          200: SingleResult('core', Type.Boolean()),
          ...errorResponses('core', 400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => single('core', await removeMember(database, authOf(request), request.params.userId)),
  )
}
