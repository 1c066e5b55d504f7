import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import { beforeAll } from 'vitest'
import type { Tables } from '../src/db/tables.js'
import { hashPassword } from '../src/security/passwords.js'
import {
  coreAs,
  type OwnerSession,
  ownerSession,
  PASSWORD,
  signIn,
  type TestContext,
  uniqueEmail,
} from './harness.js'

/**
 * Fixtures every module's tests share: rows inserted directly for what a test is not about, and
 * the few API calls many tests need before they start. Contexts and clients are in harness.ts.
 */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Longer than the authenticator's 1 s cache of session and membership state. */
export const PAST_STATE_TTL = 1_100

/** The organisation schema a business lives in. */
export async function schemaOf(ctx: TestContext, businessId: string): Promise<string> {
  const row = await ctx.database.db
    .selectFrom('global.businesses as b')
    .innerJoin('global.organizations as o', 'o.id', 'b.organization_id')
    .select('o.schema_name')
    .where('b.id', '=', businessId)
    .executeTakeFirstOrThrow()
  return row.schema_name
}

export async function organizationIdOf(ctx: TestContext, businessId: string): Promise<string> {
  const row = await ctx.database.db
    .selectFrom('global.businesses')
    .select('organization_id')
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow()
  return row.organization_id
}

/** A second business in the organisation of `businessId`: in the global index and the tenant schema. */
export async function addBusiness(ctx: TestContext, businessId: string): Promise<string> {
  const organizationId = await organizationIdOf(ctx, businessId)
  const id = randomUUID()
  await ctx.database.db
    .insertInto('global.businesses')
    .values({ id, organization_id: organizationId, parent_business_id: null })
    .execute()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('businesses')
    .values({ id, registered_name: 'Branch', display_name: 'Branch' })
    .execute()
  return id
}

/**
 * A new business in the owner's organisation, as registration leaves one (its row; no settings,
 * customers or other data), with the owner acting in it: a clean business for a test whose story
 * is about one business's data, without registering an organisation (a schema with every table,
 * the dearest step of most tests). Tests about the organisation itself (members, roles, keys,
 * another organisation's 404) keep their own `ownerSession(ctx)`.
 */
export async function freshBusiness(ctx: TestContext, owner: OwnerSession) {
  const businessId = await addBusiness(ctx, owner.org.businessId)
  const credential = { accessToken: owner.signedIn.accessToken, businessId }
  return { businessId, credential, core: coreAs(ctx, credential) }
}

/**
 * `freshBusiness` in the shape of an `ownerSession`: the owner acting in a new business of their
 * organisation, for fixtures and helpers that hand tests an `ownerSession` and whose stories are
 * about one business's data.
 */
export async function businessSession(ctx: TestContext, owner: OwnerSession): Promise<OwnerSession> {
  const { businessId, credential, core } = await freshBusiness(ctx, owner)
  return { org: { ...owner.org, businessId }, signedIn: owner.signedIn, credential, core }
}

// One organisation per context (a file's, or a describe's) and name, registered on first use.
const sharedOrganisations = new WeakMap<TestContext, Map<string, Promise<OwnerSession>>>()

/**
 * The organisation of this context named `name` (registered the first time it is asked for), for
 * fixtures that set up a business per test: `businessSession(ctx, await sharedOrganisation(ctx))`
 * gives each test a clean business without registering an organisation each time. A test that
 * needs another organisation (a 404 across organisations) asks for another name.
 */
export function sharedOrganisation(ctx: TestContext, name = 'first'): Promise<OwnerSession> {
  const byName = sharedOrganisations.get(ctx) ?? new Map<string, Promise<OwnerSession>>()
  sharedOrganisations.set(ctx, byName)
  const owner = byName.get(name) ?? ownerSession(ctx)
  byName.set(name, owner)
  return owner
}

/**
 * Registers the context's shared organisation before the file's tests (as `useOwnerSession` does),
 * so that its registration, the first and dearest of a worker, counts against the hook's timeout
 * rather than the first test's.
 */
export function useSharedOrganisation(ctx: TestContext, name = 'first') {
  beforeAll(async () => {
    await sharedOrganisation(ctx, name)
  })
}

/** A customer row inserted directly, for tests that are not about the customers API. */
export async function insertCustomer(
  ctx: TestContext,
  businessId: string,
  options: { name?: string; deleted?: boolean } = {},
): Promise<string> {
  const id = randomUUID()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('customers')
    .values({
      id,
      business_id: businessId,
      code: `CUS-${id.slice(0, 8)}`,
      name: options.name ?? `Customer ${id.slice(0, 4)}`,
      email: null,
      phone_number: null,
      customer_group_id: null,
      notes: null,
      deleted_at: options.deleted ? new Date() : null,
    })
    .execute()
  return id
}

export interface MembershipOptions {
  role?: 'Owner' | 'Admin' | 'Member' | 'Custom'
  customRoleId?: string
  status?: 'Active' | 'Invited'
}

/** Makes an existing user a member (active Member unless told) of an organisation. */
export async function addMembership(
  ctx: TestContext,
  organizationId: string,
  userId: string,
  options: MembershipOptions = {},
) {
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
}

export interface MemberOptions extends MembershipOptions {
  firstName?: string
  lastName?: string
  email?: string
  verified?: boolean
}

// Hashing is deliberately slow; every fixture user shares the one password.
let passwordHash: Promise<string> | undefined

/** A user (password PASSWORD) with a membership in the organisation of `businessId`. */
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
  await addMembership(ctx, organizationId, userId, options)
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

/** An API key of the business, created through the Global API by its signed-in owner; the key's value. */
export async function createApiKey(
  ctx: TestContext,
  accessToken: string,
  businessId: string,
  options: { label?: string; scopes?: string } = {},
): Promise<string> {
  const response = await ctx.global.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: { authorization: `Bearer ${accessToken}` },
    payload: {
      businessId,
      ...(options.label ? { label: options.label } : {}),
      ...(options.scopes ? { scopes: options.scopes } : {}),
    },
  })
  if (response.statusCode !== 200) throw new Error(`create API key: ${response.statusCode} ${response.body}`)
  return response.json().data.token as string
}

/** The fields a 400 names: `reasons` on the Core API, `errors` on the Global API. */
export function fieldsOf(response: { json(): unknown }): string[] {
  const body = response.json() as { reasons?: { field: string }[]; errors?: { field: string }[] }
  return (body.reasons ?? body.errors ?? []).map((reason) => reason.field)
}

/**
 * Runs `work` in a transaction that is then rolled back, and returns what it read: for a statement
 * (a data migration, say) that would change rows other test files sharing the database rely on.
 */
export async function rolledBack<T>(
  ctx: TestContext,
  work: (trx: Transaction<Tables>) => Promise<T>,
): Promise<T> {
  const undo = new Error('rolled back')
  let result: { value: T } | undefined
  try {
    await ctx.database.db.transaction().execute(async (trx) => {
      result = { value: await work(trx) }
      throw undo
    })
  } catch (error) {
    if (error !== undo) throw error
  }
  if (!result) throw new Error('the rolled-back work returned nothing')
  return result.value
}
