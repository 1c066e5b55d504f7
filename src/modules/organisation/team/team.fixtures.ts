import { organizationIdOf } from '../../../../test/fixtures.js'
import { type Core, ownerSession, type TestContext } from '../../../../test/harness.js'
import { PERMISSION_MODULES } from '../../../security/permissions.js'

/** Test helpers for the team module: its routes as calls (members and users are in test/fixtures.ts). */

export type RoleBody = { name: string; description?: string | null; permissions: Record<string, unknown> }

export const createRole = (core: Core, payload: RoleBody) =>
  core({ method: 'POST', url: '/api/team/roles', payload })
export const updateRole = (core: Core, id: string, payload: RoleBody) =>
  core({ method: 'PUT', url: `/api/team/roles/${id}`, payload })
export const deleteRole = (core: Core, id: string) => core({ method: 'DELETE', url: `/api/team/roles/${id}` })

export const changeRole = (core: Core, userId: string, payload: Record<string, unknown>) =>
  core({ method: 'PUT', url: `/api/team/members/${userId}/role`, payload })

/** Every module with no rights at all: the base a role's full permission map is compared against. */
export const NO_PERMISSIONS = Object.fromEntries(PERMISSION_MODULES.map((m) => [m, 0]))

/** A freshly registered owner, with the id of their organisation. */
export async function ownerAndOrganization(ctx: TestContext) {
  const owner = await ownerSession(ctx)
  const organizationId = await organizationIdOf(ctx, owner.org.businessId)
  return { owner, organizationId, businessId: owner.org.businessId }
}
