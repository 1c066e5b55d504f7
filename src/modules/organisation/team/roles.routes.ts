import { Type } from '@sinclair/typebox'
import { authOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { createRole, deleteRole, listRoles, updateRole } from './roles.service.js'
import { Role, RoleParams, RoleRequest } from './team.schemas.js'

const WRITE_RULES =
  'Names are unique ignoring case and may not be Owner, Admin or Member (409 role_name_taken). ' +
  'A non-owner may not grant rights they lack (403 permission_exceeds_caller). Changes reach members within a second.'

export function registerRoleRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/team/roles',
    {
      config: { access: { permission: ['TeamAndRoles', 'View'] } },
      schema: {
        operationId: 'GetRoles',
        summary: 'The built-in roles (Owner, Admin, Member) and the custom roles of the organisation',
        tags: ['Team'],
        security: CORE_SECURITY,
        response: { 200: SingleResult('core', Type.Array(Role)), ...errorResponses('core', 401, 403) },
      },
    },
    async (request) => single('core', await listRoles(database, authOf(request))),
  )

  app.post(
    '/api/team/roles',
    {
      config: { access: { permission: ['TeamAndRoles', 'Modify'] } },
      schema: {
        operationId: 'CreateRole',
        summary: 'Create a custom role',
        description: WRITE_RULES,
        tags: ['Team'],
        security: CORE_SECURITY,
        body: RoleRequest,
        response: { 200: SingleResult('core', Role), ...errorResponses('core', 400, 401, 403, 409) },
      },
    },
    async (request) => single('core', await createRole(database, authOf(request), request.body)),
  )

  app.put(
    '/api/team/roles/:roleId',
    {
      config: { access: { permission: ['TeamAndRoles', 'Modify'] } },
      schema: {
        operationId: 'UpdateRole',
        summary: 'Replace the name, description and permissions of a custom role',
        description: WRITE_RULES,
        tags: ['Team'],
        security: CORE_SECURITY,
        params: RoleParams,
        body: RoleRequest,
        response: { 200: SingleResult('core', Role), ...errorResponses('core', 400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      single('core', await updateRole(database, authOf(request), request.params.roleId, request.body)),
  )

  app.delete(
    '/api/team/roles/:roleId',
    {
      config: { access: { permission: ['TeamAndRoles', 'Delete'] } },
      schema: {
        operationId: 'DeleteRole',
        summary: 'Delete a custom role no member holds',
        description: 'A role still held by a member (active or invited) is a 409 role_in_use.',
        tags: ['Team'],
        security: CORE_SECURITY,
        params: RoleParams,
        response: {
          200: SingleResult('core', Type.Boolean()),
          ...errorResponses('core', 400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => single('core', await deleteRole(database, authOf(request), request.params.roleId)),
  )
}
