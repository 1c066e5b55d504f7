import { randomUUID } from 'node:crypto'
import type { TestContext } from '../../../test/harness.js'

/** Test helpers for the settings module. */

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

/** A customer row inserted directly (the customers API is not what these tests are about). */
export async function insertCustomer(
  ctx: TestContext,
  businessId: string,
  options: { deleted?: boolean } = {},
) {
  const id = randomUUID()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('customers')
    .values({
      id,
      business_id: businessId,
      code: `CUS-${id.slice(0, 8)}`,
      name: 'Test Customer',
      email: null,
      phone_number: null,
      customer_group_id: null,
      notes: null,
      deleted_at: options.deleted ? new Date() : null,
    })
    .execute()
  return id
}

/** An API key for the business, created by its owner through the Global API. */
export async function apiKey(ctx: TestContext, accessToken: string, businessId: string, scopes?: string) {
  const response = await ctx.global.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: { authorization: `Bearer ${accessToken}` },
    payload: { businessId, ...(scopes ? { scopes } : {}) },
  })
  if (response.statusCode !== 200) throw new Error(`API key creation failed: ${response.body}`)
  return response.json().data.token as string
}
