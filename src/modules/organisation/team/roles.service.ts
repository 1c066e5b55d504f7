import type { Database } from '../../../db/database.js'
import { isUniqueViolation, newId } from '../../../db/ids.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { type AuthContext, isOwnerInPerson } from '../../../security/auth-context.js'
import {
  BUILT_IN_ROLES,
  isSubset,
  PERMISSION_MODULES,
  type PermissionSet,
  parsePermissionMap,
  ROLE_PERMISSIONS,
} from '../../../security/permissions.js'
import * as repository from './roles.repository.js'
import { permissionExceedsCaller, roleInUse, roleNameTaken, roleNotFound } from './team.errors.js'
import type { Role, RoleRequest } from './team.schemas.js'

const BUILT_IN_DESCRIPTIONS: Record<(typeof BUILT_IN_ROLES)[number], string> = {
  Owner: 'Everything, including billing, owners and API keys.',
  Admin: 'Everything except billing.',
  Member: 'View everything.',
}

/** Every module with its mask, so clients never have to treat a missing module as 0. */
const fullMap = (permissions: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(PERMISSION_MODULES.map((m) => [m, permissions[m] ?? 0]))

function toRole(row: repository.RoleRow): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    permissions: fullMap(row.permissions),
    builtIn: false,
    memberCount: Number(row.member_count),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

export async function listRoles(database: Database, auth: AuthContext): Promise<Role[]> {
  const [rows, counts] = await Promise.all([
    repository.listRoles(database.db, auth.organizationId),
    repository.builtInCounts(database.db, auth.organizationId),
  ])
  const builtIn = BUILT_IN_ROLES.map(
    (name): Role => ({
      id: null,
      name,
      description: BUILT_IN_DESCRIPTIONS[name],
      permissions: fullMap(ROLE_PERMISSIONS[name]),
      builtIn: true,
      memberCount: counts.get(name) ?? 0,
      dateCreated: null,
      dateModified: null,
    }),
  )
  return [...builtIn, ...rows.map(toRole)]
}

/** Rules beyond the JSON schema: a non-blank name, known modules; then no rights the caller lacks. */
function validate(auth: AuthContext, request: RoleRequest): repository.RoleValues {
  const reasons: Reason[] = []
  const name = request.name.trim()
  if (!name) reasons.push({ field: 'name', message: 'must not be blank' })
  const parsed = parsePermissionMap('permissions', request.permissions)
  reasons.push(...parsed.reasons)
  if (reasons.length > 0) throw validationFailed(reasons)
  const permissions: PermissionSet = parsed.permissions ?? {}
  // An owner holds every right; anyone else (an owner's key too) may only hand out rights they hold.
  if (!isOwnerInPerson(auth) && !isSubset(permissions, auth.permissions)) {
    throw permissionExceedsCaller('create a role')
  }
  if (BUILT_IN_ROLES.some((b) => b.toLowerCase() === name.toLowerCase())) throw roleNameTaken()
  return { name, description: request.description?.trim() || null, permissions: fullMap(permissions) }
}

async function saved(database: Database, auth: AuthContext, id: string) {
  const row = await repository.findRole(database.db, auth.organizationId, id)
  if (!row) throw roleNotFound()
  return toRole(row)
}

/** The unique index on (organisation, lower(name)) decides a race between two equal names. */
async function uniquely(write: () => Promise<void>) {
  try {
    await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw roleNameTaken()
    throw error
  }
}

export async function createRole(database: Database, auth: AuthContext, request: RoleRequest) {
  const values = validate(auth, request)
  if (await repository.nameTaken(database.db, auth.organizationId, values.name, null)) throw roleNameTaken()
  const id = newId()
  await uniquely(() => repository.insertRole(database.db, id, auth.organizationId, values))
  return saved(database, auth, id)
}

export async function updateRole(
  database: Database,
  auth: AuthContext,
  roleId: string,
  request: RoleRequest,
) {
  if (!(await repository.findRole(database.db, auth.organizationId, roleId))) throw roleNotFound()
  const values = validate(auth, request)
  if (await repository.nameTaken(database.db, auth.organizationId, values.name, roleId)) throw roleNameTaken()
  await uniquely(() => repository.updateRole(database.db, auth.organizationId, roleId, values))
  return saved(database, auth, roleId)
}

export async function deleteRole(database: Database, auth: AuthContext, roleId: string) {
  if (!(await repository.findRole(database.db, auth.organizationId, roleId))) throw roleNotFound()
  if (await repository.roleInUse(database.db, roleId)) throw roleInUse()
  try {
    await repository.deleteRole(database.db, auth.organizationId, roleId)
  } catch (error) {
    // Assigned between the check and the delete: the foreign key refuses it.
    if ((error as { code?: unknown }).code === '23503') throw roleInUse()
    throw error
  }
  return true
}
