import { randomUUID } from 'node:crypto'
import { coreAs, PASSWORD, signIn, type TestContext, uniqueEmail } from '../../../test/harness.js'
import { hashPassword } from '../../security/passwords.js'

/** Test helpers for the team module: members are inserted directly, then sign in like anyone else. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Longer than the authenticator's 1 s cache of session and membership state. */
export const PAST_STATE_TTL = 1_100

let passwordHash: Promise<string> | undefined

export async function organizationIdOf(ctx: TestContext, businessId: string): Promise<string> {
  const row = await ctx.database.db
    .selectFrom('global.businesses')
    .select('organization_id')
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow()
  return row.organization_id
}

export interface MemberOptions {
  role?: 'Owner' | 'Admin' | 'Member' | 'Custom'
  customRoleId?: string
  status?: 'Active' | 'Invited'
  firstName?: string
  lastName?: string
  email?: string
  verified?: boolean
}

/** A user with a membership (active unless told) in the organisation of `businessId`. */
export async function addUser(ctx: TestContext, businessId: string, options: MemberOptions = {}) {
  const organizationId = await organizationIdOf(ctx, businessId)
  const userId = randomUUID()
  const email = options.email ?? uniqueEmail('member')
  passwordHash ??= hashPassword(PASSWORD)
  await ctx.database.db
    .insertInto('global.users')
    .values({
      id: userId,
      email,
      first_name: options.firstName ?? 'Grace',
      last_name: options.lastName ?? 'Hopper',
      password_hash: await passwordHash,
      email_verified_at: options.verified === false ? null : new Date(),
    })
    .execute()
  await ctx.database.db
    .insertInto('global.memberships')
    .values({
      id: randomUUID(),
      organization_id: organizationId,
      user_id: userId,
      role: options.role ?? 'Member',
      custom_role_id: options.customRoleId ?? null,
      status: options.status ?? 'Active',
    })
    .execute()
  return { userId, email, organizationId }
}

/** An active member, signed in: `core` injects into the Core API as them. */
export async function addMember(
  ctx: TestContext,
  businessId: string,
  options: Omit<MemberOptions, 'status'> = {},
) {
  const user = await addUser(ctx, businessId, options)
  const signedIn = await signIn(ctx, { email: user.email, password: PASSWORD })
  const credential = { accessToken: signedIn.accessToken, businessId }
  return { ...user, signedIn, credential, core: coreAs(ctx, credential) }
}

/** Inserts a custom role directly (for tests that are not about creating roles). */
export async function addRole(ctx: TestContext, organizationId: string, permissions: Record<string, number>) {
  const id = randomUUID()
  await ctx.database.db
    .insertInto('global.roles')
    .values({
      id,
      organization_id: organizationId,
      name: `Role ${id.slice(0, 8)}`,
      permissions: JSON.stringify(permissions),
    })
    .execute()
  return id
}
