import type { Database } from '../../../db/database.js'
import { invalidField } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import { type ListQuery, pageRequest } from '../../../http/list-params.js'
import { buildFilter, buildOrderBy, type FieldMap } from '../../../http/odata/index.js'
import type { AuthContext } from '../../../security/auth-context.js'
import { rolePermissions } from '../../../security/authenticator.js'
import { isSubset } from '../../../security/permissions.js'
import * as repository from './members.repository.js'
import { lockRole } from './roles.repository.js'
import { lastOwner, memberNotFound, ownerRequired, permissionExceedsCaller } from './team.errors.js'
import { type ChangeRoleRequest, MEMBER_ROLES, MEMBER_STATUSES, type TeamMember } from './team.schemas.js'

const FIELDS = {
  email: { column: 'u.email', type: 'string' },
  firstName: { column: 'u.first_name', type: 'string' },
  lastName: { column: 'u.last_name', type: 'string' },
  role: { column: 'm.role', type: 'enum', enumValues: MEMBER_ROLES },
  status: { column: 'm.status', type: 'enum', enumValues: MEMBER_STATUSES },
  dateCreated: { column: 'm.date_created', type: 'datetime' },
} as const satisfies FieldMap

export function toMember(row: repository.MemberRow): TeamMember {
  const name = `${row.first_name} ${row.last_name}`.trim()
  return {
    // While invited, the membership's id: an existing account's user id stays private until it accepts.
    userId: row.status === 'Invited' ? row.membership_id : row.user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    displayName: name || row.email,
    role: row.role as TeamMember['role'],
    customRole:
      row.custom_role_id && row.custom_role_name
        ? { id: row.custom_role_id, name: row.custom_role_name }
        : null,
    status: row.status as TeamMember['status'],
    emailVerified: row.email_verified_at !== null,
    dateCreated: row.date_created.toISOString(),
  }
}

export async function listMembers(database: Database, auth: AuthContext, query: ListQuery) {
  const filter = buildFilter(query.$filter ?? '', FIELDS)
  const order = buildOrderBy(query.$orderby ?? '', FIELDS)
  const page = pageRequest(query)
  const { rows, total } = await repository.listMembers(database.db, auth.organizationId, {
    filter,
    search: query.$search,
    order,
    page,
  })
  return paged('core', rows.map(toMember), total, page)
}

/** `customRoleId` belongs with role Custom and only there. */
function checkCustomRoleId(request: ChangeRoleRequest): string | null {
  const customRoleId = request.customRoleId ?? null
  if (request.role === 'Custom' && !customRoleId) {
    throw invalidField('customRoleId', 'is required when role is Custom')
  }
  if (request.role !== 'Custom' && customRoleId) {
    throw invalidField('customRoleId', 'must be omitted unless role is Custom')
  }
  return customRoleId
}

/**
 * Changes a member's role. The owner check and the change run in one transaction holding the
 * organisation's owner memberships locked, so two owners demoting each other leave one owner.
 */
export async function changeRole(
  database: Database,
  auth: AuthContext,
  memberId: string,
  request: ChangeRoleRequest,
): Promise<TeamMember> {
  const customRoleId = checkCustomRoleId(request)
  return database.db.transaction().execute(async (trx) => {
    const owners = await repository.lockOwners(trx, auth.organizationId)
    const target = await repository.lockMembership(trx, auth.organizationId, memberId)
    if (!target) throw memberNotFound()
    const userId = target.user_id
    const customRole = customRoleId ? await lockRole(trx, auth.organizationId, customRoleId) : undefined
    if (customRoleId && !customRole) throw invalidField('customRoleId', 'must be a role of this organisation')

    // Read under the lock, not from the (up to a second old) credential; an owner's key is not the owner.
    const callerIsOwner =
      auth.kind === 'user' && owners.some((o) => o.user_id === auth.userId && o.status === 'Active')
    if ((target.role === 'Owner' || request.role === 'Owner') && !callerIsOwner) {
      throw ownerRequired('grant or take away the Owner role', auth)
    }
    // Without this a team manager could hand themselves (or a friend) rights they lack, e.g. Billing.
    const granted = rolePermissions(request.role, customRole?.permissions ?? null)
    if (!callerIsOwner && !isSubset(granted, auth.permissions)) {
      throw permissionExceedsCaller('grant a role')
    }
    const demotesOwner = target.role === 'Owner' && target.status === 'Active' && request.role !== 'Owner'
    if (demotesOwner && !owners.some((o) => o.user_id !== userId && o.status === 'Active')) throw lastOwner()

    await repository.setRole(trx, target.id, request.role, customRoleId)
    const updated = await repository.findMember(trx, auth.organizationId, userId)
    if (!updated) throw memberNotFound()
    return toMember(updated)
  })
}

/** Removes a member and ends their sessions here; same locking as changeRole for the last owner. */
export async function removeMember(
  database: Database,
  auth: AuthContext,
  memberId: string,
): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const owners = await repository.lockOwners(trx, auth.organizationId)
    const target = await repository.lockMembership(trx, auth.organizationId, memberId)
    if (!target) throw memberNotFound()
    const userId = target.user_id
    const callerIsOwner =
      auth.kind === 'user' && owners.some((o) => o.user_id === auth.userId && o.status === 'Active')
    if (target.role === 'Owner' && !callerIsOwner) throw ownerRequired('remove an owner', auth)
    const removesOwner = target.role === 'Owner' && target.status === 'Active'
    if (removesOwner && !owners.some((o) => o.user_id !== userId && o.status === 'Active')) throw lastOwner()
    await repository.removeMembership(trx, target.id, auth.organizationId, userId)
    return true
  })
}
