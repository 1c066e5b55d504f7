import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'
import { userByEmail } from '../auth/index.js'

/** The user with this email, created without a password if new; an existing user keeps their names. */
export async function ensureUser(
  db: Executor,
  user: { id: string; email: string; firstName: string; lastName: string },
) {
  await db
    .insertInto('global.users')
    .values({ id: user.id, email: user.email, first_name: user.firstName, last_name: user.lastName })
    // A parallel invitation of the same new address waits for the other insert, then reads it.
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .execute()
  return userByEmail(db, user.email)
    .select(['id', 'email', 'first_name', 'last_name'])
    .executeTakeFirstOrThrow()
}

export async function findMembership(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('global.memberships')
    .select(['id', 'role', 'status'])
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

export interface Invitation {
  organizationId: string
  userId: string
  role: string
  customRoleId: string | null
  invitedByUserId: string
  /** The address and names as the inviter wrote them (names empty when none). */
  email: string
  firstName: string
  lastName: string
}

export async function insertInvitedMembership(db: Executor, id: string, invitation: Invitation) {
  await db
    .insertInto('global.memberships')
    .values({
      id,
      organization_id: invitation.organizationId,
      user_id: invitation.userId,
      role: invitation.role,
      custom_role_id: invitation.customRoleId,
      invited_by_user_id: invitation.invitedByUserId,
      invited_email: invitation.email,
      invited_first_name: invitation.firstName,
      invited_last_name: invitation.lastName,
      status: 'Invited',
    })
    .execute()
}

/** A new invitation of someone still invited replaces the terms of the earlier one. */
export async function updateInvitedMembership(db: Executor, membershipId: string, invitation: Invitation) {
  await db
    .updateTable('global.memberships')
    .set({
      role: invitation.role,
      custom_role_id: invitation.customRoleId,
      invited_by_user_id: invitation.invitedByUserId,
      invited_email: invitation.email,
      invited_first_name: invitation.firstName,
      invited_last_name: invitation.lastName,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', membershipId)
    .where('status', '=', 'Invited')
    .execute()
}

/** The permissions of a custom role of the organisation, or undefined when it has no such role. */
export async function organizationRolePermissions(db: Executor, organizationId: string, roleId: string) {
  const row = await db
    .selectFrom('global.roles')
    .select('permissions')
    .where('id', '=', roleId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  return row?.permissions
}

export async function organizationName(db: Executor, organizationId: string) {
  const row = await db
    .selectFrom('global.organizations')
    .select('name')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return row.name
}

/** True when the membership still exists (it may have been removed since the invitation). */
export async function activateMembership(db: Executor, organizationId: string, userId: string) {
  const row = await db
    .updateTable('global.memberships')
    .set({ status: 'Active', date_modified: sql<Date>`now()` })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Marks the address verified and, when `passwordHash` is given, sets the first password, only if
 * the user still has none (false otherwise: one was set since the request was checked).
 */
export async function completeUser(db: Executor, userId: string, passwordHash: string | null) {
  let query = db
    .updateTable('global.users')
    .set({
      email_verified_at: sql<Date>`coalesce(email_verified_at, now())`,
      date_modified: sql<Date>`now()`,
      ...(passwordHash === null ? {} : { password_hash: passwordHash }),
    })
    .where('id', '=', userId)
  if (passwordHash !== null) query = query.where('password_hash', 'is', null)
  const row = await query.returning('id').executeTakeFirst()
  return row !== undefined
}
