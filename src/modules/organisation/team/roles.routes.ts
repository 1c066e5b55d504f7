import { Type } from '@sinclair/typebox'
import { authOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { createRole, deleteRole, listRoles, updateRole } from './roles.service.js'
import { Role, RoleParams, RoleRequest } from './team.schemas.js'

const TAGS = ['Team']
const WRITE_RULES =
  'Names are unique ignoring case and may not be Owner, Admin or Member (409 role_name_taken). ' +
  'A non-owner (an owner’s API key too) may not grant rights they lack (403 permission_exceeds_caller). Changes reach members within a second.'

export function registerRoleRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/team/roles',
    operation(['TeamAndRoles', 'View'], {
      operationId: 'GetRoles',
      summary: 'The built-in roles (Owner, Admin, Member) and the custom roles of the organisation',
      tags: TAGS,
      response: SingleResult('core', Type.Array(Role)),
      errors: [],
    }),
    async (request) => single('core', await listRoles(database, authOf(request))),
  )

  app.post(
    '/api/team/roles',
    operation(['TeamAndRoles', 'Modify'], {
      operationId: 'CreateRole',
      summary: 'Create a custom role',
      description: WRITE_RULES,
      tags: TAGS,
      body: RoleRequest,
      response: SingleResult('core', Role),
      errors: [400, 409],
    }),
    async (request) => single('core', await createRole(database, authOf(request), request.body)),
  )

  app.put(
    '/api/team/roles/:roleId',
    operation(['TeamAndRoles', 'Modify'], {
      operationId: 'UpdateRole',
      summary: 'Replace the name, description and permissions of a custom role',
      description: WRITE_RULES,
      tags: TAGS,
      params: RoleParams,
      body: RoleRequest,
      response: SingleResult('core', Role),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await updateRole(database, authOf(request), request.params.roleId, request.body)),
  )

  app.delete(
    '/api/team/roles/:roleId',
    operation(['TeamAndRoles', 'Delete'], {
      operationId: 'DeleteRole',
      summary: 'Delete a custom role no member holds',
      description: 'A role still held by a member (active or invited) is a 409 role_in_use.',
      tags: TAGS,
      params: RoleParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404, 409],
    }),
    async (request) => single('core', await deleteRole(database, authOf(request), request.params.roleId)),
  )
}
