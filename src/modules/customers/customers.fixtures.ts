import { randomUUID } from 'node:crypto'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import {
  type Credential,
  coreAs,
  PASSWORD,
  signIn,
  type TestContext,
  uniqueEmail,
} from '../../../test/harness.js'
import { hashPassword } from '../../security/passwords.js'
import type { CustomerResponse } from './customers.schemas.js'

/** Test helpers for customers and customer groups. */

export type Core = (options: InjectOptions) => Promise<LightMyRequestResponse>

export const CUSTOMERS = '/api/v1/Customers'
export const GROUPS = '/api/v1/CustomerGroups'

export async function createCustomer(
  core: Core,
  body: Record<string, unknown> = {},
): Promise<CustomerResponse> {
  const response = await core({ method: 'POST', url: CUSTOMERS, payload: { name: 'Acme Ltd', ...body } })
  if (response.statusCode !== 200) throw new Error(`create customer: ${response.statusCode} ${response.body}`)
  return response.json().data
}

export async function createGroup(core: Core, name = `Group ${randomUUID().slice(0, 8)}`) {
  const response = await core({ method: 'POST', url: GROUPS, payload: { name } })
  if (response.statusCode !== 200) throw new Error(`create group: ${response.statusCode} ${response.body}`)
  return response.json().data as { id: string; name: string; customerCount: number }
}

export async function schemaOf(ctx: TestContext, businessId: string): Promise<string> {
  const row = await ctx.database.db
    .selectFrom('global.businesses as b')
    .innerJoin('global.organizations as o', 'o.id', 'b.organization_id')
    .select('o.schema_name')
    .where('b.id', '=', businessId)
    .executeTakeFirstOrThrow()
  return row.schema_name
}

let passwordHash: Promise<string> | undefined

/** A signed-in member with a built-in role (Member = view only) in the organisation of `businessId`. */
export async function addMember(ctx: TestContext, businessId: string, role: 'Member' | 'Admin' = 'Member') {
  const { organization_id } = await ctx.database.db
    .selectFrom('global.businesses')
    .select('organization_id')
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow()
  const userId = randomUUID()
  const email = uniqueEmail('member')
  passwordHash ??= hashPassword(PASSWORD)
  await ctx.database.db
    .insertInto('global.users')
    .values({
      id: userId,
      email,
      first_name: 'Grace',
      last_name: 'Hopper',
      password_hash: await passwordHash,
    })
    .execute()
  await ctx.database.db
    .insertInto('global.memberships')
    .values({ id: randomUUID(), organization_id, user_id: userId, role, status: 'Active' })
    .execute()
  const signedIn = await signIn(ctx, { email, password: PASSWORD })
  const credential: Credential = { accessToken: signedIn.accessToken, businessId }
  return { userId, core: coreAs(ctx, credential) }
}

/** An unrestricted API key of the business, made through the Global API by a signed-in owner. */
export async function apiKeyCore(ctx: TestContext, accessToken: string, businessId: string): Promise<Core> {
  const response = await ctx.global.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: { authorization: `Bearer ${accessToken}` },
    payload: { businessId, label: 'customers test' },
  })
  if (response.statusCode !== 200) throw new Error(`create api key: ${response.statusCode} ${response.body}`)
  return coreAs(ctx, { apiKey: response.json().data.token })
}

/** The traces of a customer as the API lists them (newest first). */
export async function tracesOf(core: Core, customerId: string, query = '') {
  const response = await core({ url: `${CUSTOMERS}/${customerId}/traces${query}` })
  if (response.statusCode !== 200) throw new Error(`traces: ${response.statusCode} ${response.body}`)
  return response.json().data as { type: string; note: string | null; source: string }[]
}

/** The `reasons[].field` of an error response, for asserting which fields a 400 names. */
export const fieldsOf = (response: LightMyRequestResponse): string[] =>
  (response.json().reasons as { field: string }[]).map((reason) => reason.field)
