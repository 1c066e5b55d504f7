import { type Kysely, sql, type Transaction } from 'kysely'
import { assertSchemaName } from '../../../db/migrator.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { userByEmail } from '../auth/index.js'

export async function emailExists(db: Executor, email: string): Promise<boolean> {
  return (await userByEmail(db, email).select('id').executeTakeFirst()) !== undefined
}

export async function slugExists(db: Executor, slug: string): Promise<boolean> {
  const row = await db
    .selectFrom('global.organizations')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirst()
  return row !== undefined
}

export interface NewOrganization {
  organization: { id: string; slug: string; name: string; schemaName: string; cluster: string }
  user: {
    id: string
    email: string
    firstName: string
    lastName: string
    phoneNumber: string | null
    passwordHash: string
  }
  business: {
    id: string
    registeredName: string
    displayName: string
    registrationNumber: string | null
    email: string | null
    phoneNumber: string | null
    website: string | null
    address: Record<string, unknown> | null
    requiresOrderIntegration: boolean
    requiresOrderFulfillment: boolean
    requiresAccountingIntegration: boolean
    requiresDispatchBuilder: boolean
    multipleBranches: boolean
    fulfillmentTypes: string[]
    addOns: string[]
  }
}

/** Writes the global rows; the caller's transaction also creates the schema and its business row. */
export async function insertIdentity(
  trx: Transaction<Tables>,
  input: NewOrganization,
  ownerRole: string,
  membershipId: string,
) {
  const { organization, user, business } = input
  await trx
    .insertInto('global.organizations')
    .values({
      id: organization.id,
      slug: organization.slug,
      name: organization.name,
      schema_name: organization.schemaName,
      cluster: organization.cluster,
    })
    .execute()
  await trx
    .insertInto('global.users')
    .values({
      id: user.id,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      phone_number: user.phoneNumber,
      password_hash: user.passwordHash,
    })
    .execute()
  await trx
    .insertInto('global.memberships')
    .values({ id: membershipId, organization_id: organization.id, user_id: user.id, role: ownerRole })
    .execute()
  await trx
    .insertInto('global.businesses')
    .values({ id: business.id, organization_id: organization.id, parent_business_id: null })
    .execute()
}

export async function insertBusiness(
  trx: Transaction<Tables>,
  schemaName: string,
  business: NewOrganization['business'],
) {
  await trx
    .withSchema(schemaName)
    .insertInto('businesses')
    .values({
      id: business.id,
      parent_business_id: null,
      registered_name: business.registeredName,
      display_name: business.displayName,
      registration_number: business.registrationNumber,
      email: business.email,
      phone_number: business.phoneNumber,
      website: business.website,
      address: business.address === null ? null : JSON.stringify(business.address),
      requires_order_integration: business.requiresOrderIntegration,
      requires_order_fulfillment: business.requiresOrderFulfillment,
      requires_accounting_integration: business.requiresAccountingIntegration,
      requires_dispatch_builder: business.requiresDispatchBuilder,
      multiple_branches: business.multipleBranches,
      fulfillment_types: business.fulfillmentTypes,
      add_ons: business.addOns,
    })
    .execute()
}

/** A new organisation's empty schema (a name already there fails with 42P06). */
export async function createSchema(trx: Transaction<Tables>, schema: string) {
  await sql.raw(`CREATE SCHEMA ${assertSchemaName(schema)}`).execute(trx)
}

/** Removes a schema a registration created on a cluster and its migration records there. */
export async function dropTenant(db: Kysely<Tables>, schema: string) {
  await db.transaction().execute(async (trx) => {
    await sql.raw(`DROP SCHEMA IF EXISTS ${assertSchemaName(schema)} CASCADE`).execute(trx)
    await sql`DELETE FROM global.tenant_migrations WHERE schema_name = ${schema}`.execute(trx)
  })
}
