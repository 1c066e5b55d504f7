import { sql, type Transaction } from 'kysely'
import { SchemaStatement } from '../../../db/schema-statements.js'
import type { Executor, Tables } from '../../../db/tables.js'

export const BUSINESS_COLUMNS = [
  'id',
  'parent_business_id',
  'registered_name',
  'display_name',
  'registration_number',
  'email',
  'phone_number',
  'website',
  'address',
  'currency',
  'timezone',
  'requires_order_integration',
  'requires_order_fulfillment',
  'requires_accounting_integration',
  'requires_dispatch_builder',
  'multiple_branches',
  'date_created',
  'date_modified',
] as const

export type BusinessRow = NonNullable<Awaited<ReturnType<typeof findBusiness>>>

/** What create and update write; the same columns either way. */
export interface BusinessValues {
  parentBusinessId: string | null
  registeredName: string
  displayName: string
  registrationNumber: string | null
  email: string | null
  phoneNumber: string | null
  website: string | null
  address: Record<string, unknown> | null
  currency: string
  timezone: string
  requiresOrderIntegration: boolean
  requiresOrderFulfillment: boolean
  requiresAccountingIntegration: boolean
  requiresDispatchBuilder: boolean
  multipleBranches: boolean
}

const columnsOf = (v: BusinessValues) => ({
  parent_business_id: v.parentBusinessId,
  registered_name: v.registeredName,
  display_name: v.displayName,
  registration_number: v.registrationNumber,
  email: v.email,
  phone_number: v.phoneNumber,
  website: v.website,
  address: v.address === null ? null : JSON.stringify(v.address),
  currency: v.currency,
  timezone: v.timezone,
  requires_order_integration: v.requiresOrderIntegration,
  requires_order_fulfillment: v.requiresOrderFulfillment,
  requires_accounting_integration: v.requiresAccountingIntegration,
  requires_dispatch_builder: v.requiresDispatchBuilder,
  multiple_branches: v.multipleBranches,
})

const businessById = new SchemaStatement((db, schemaName, v: { businessId: string }) =>
  db.withSchema(schemaName).selectFrom('businesses').select(BUSINESS_COLUMNS).where('id', '=', v.businessId),
)

/**
 * A business of the organisation whose schema this is; another organisation's is simply not there.
 * Read on most requests (my-business), so compiled once per schema.
 */
export async function findBusiness(db: Executor, schemaName: string, businessId: string) {
  return businessById.takeFirst(db, schemaName, { businessId })
}

/**
 * Serialises changes to the organisation's business tree, so two concurrent re-parentings cannot
 * together form a cycle. NO KEY UPDATE does not block inserts that reference the organisation.
 */
export async function lockOrganizationTree(trx: Transaction<Tables>, organizationId: string) {
  await trx
    .selectFrom('global.organizations')
    .select('id')
    .where('id', '=', organizationId)
    .forNoKeyUpdate()
    .executeTakeFirst()
}

/** True when the business is one of the organisation's (the global index knows every business). */
export async function businessInOrganization(db: Executor, businessId: string, organizationId: string) {
  const row = await db
    .selectFrom('global.businesses')
    .select('id')
    .where('id', '=', businessId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  return row !== undefined
}

/** True when `businessId` is `parentId` or one of its ancestors (so the parent would close a cycle). */
export async function isAncestorOrSelf(trx: Transaction<Tables>, businessId: string, parentId: string) {
  const { rows } = await sql<{ found: boolean }>`
    WITH RECURSIVE chain (id, parent_business_id, depth) AS (
      SELECT id, parent_business_id, 1 FROM global.businesses WHERE id = ${parentId}
      UNION ALL
      SELECT b.id, b.parent_business_id, c.depth + 1
      FROM global.businesses b JOIN chain c ON b.id = c.parent_business_id
      WHERE c.depth < 1000
    )
    SELECT EXISTS (SELECT 1 FROM chain WHERE id = ${businessId}) AS found`.execute(trx)
  return rows[0]?.found === true
}

/** `trx` for the global index, `organisation` for the organisation's schema (the same transaction on one cluster). */
export async function updateBusiness(
  trx: Transaction<Tables>,
  organisation: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  values: BusinessValues,
) {
  const row = await organisation
    .withSchema(schemaName)
    .updateTable('businesses')
    .set({ ...columnsOf(values), date_modified: new Date() })
    .where('id', '=', businessId)
    .returning(BUSINESS_COLUMNS)
    .executeTakeFirst()
  // The global index mirrors the parent so X-Business-Id lookups and hierarchy checks need no tenant query.
  await trx
    .updateTable('global.businesses')
    .set({ parent_business_id: values.parentBusinessId })
    .where('id', '=', businessId)
    .execute()
  return row
}

export async function insertBusiness(
  trx: Transaction<Tables>,
  organisation: Transaction<Tables>,
  schemaName: string,
  organizationId: string,
  businessId: string,
  values: BusinessValues,
) {
  await trx
    .insertInto('global.businesses')
    .values({ id: businessId, organization_id: organizationId, parent_business_id: values.parentBusinessId })
    .execute()
  return organisation
    .withSchema(schemaName)
    .insertInto('businesses')
    .values({ id: businessId, ...columnsOf(values) })
    .returning(BUSINESS_COLUMNS)
    .executeTakeFirstOrThrow()
}

/** The direct children of a business, ready for the standard list parameters. */
export const children = (db: Executor, schemaName: string, parentId: string) =>
  db
    .withSchema(schemaName)
    .selectFrom('businesses')
    .select(BUSINESS_COLUMNS)
    .where('parent_business_id', '=', parentId)
