import type { ColumnType, Generated } from 'kysely'

/** Timestamps default in SQL, come back as Date. */
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>

export interface OrganizationsTable {
  id: string
  slug: string
  name: string
  schema_name: string
  date_created: CreatedAt
  date_modified: CreatedAt
}

export interface UsersTable {
  id: string
  email: string
  first_name: Generated<string>
  last_name: Generated<string>
  phone_number: string | null
  password_hash: string | null
  email_verified_at: Date | null
  date_created: CreatedAt
  date_modified: CreatedAt
}

export interface MembershipsTable {
  id: string
  organization_id: string
  user_id: string
  role: string
  status: Generated<string>
  date_created: CreatedAt
  date_modified: CreatedAt
}

export interface BusinessIndexTable {
  id: string
  organization_id: string
  parent_business_id: string | null
  date_created: CreatedAt
}

export interface SchemaMigrationsTable {
  name: string
  applied_at: CreatedAt
}

/** Tables of the `global` schema, addressed as `global.<table>`. */
export interface GlobalTables {
  'global.organizations': OrganizationsTable
  'global.users': UsersTable
  'global.memberships': MembershipsTable
  'global.businesses': BusinessIndexTable
  'global.schema_migrations': SchemaMigrationsTable
}

export interface BusinessesTable {
  id: string
  parent_business_id: string | null
  registered_name: string
  display_name: string
  registration_number: string | null
  email: string | null
  phone_number: string | null
  website: string | null
  address: ColumnType<unknown, string | null, string | null>
  currency: Generated<string>
  timezone: Generated<string>
  requires_order_integration: Generated<boolean>
  requires_order_fulfillment: Generated<boolean>
  requires_accounting_integration: Generated<boolean>
  requires_dispatch_builder: Generated<boolean>
  multiple_branches: Generated<boolean>
  fulfillment_types: Generated<string[]>
  add_ons: Generated<string[]>
  date_created: CreatedAt
  date_modified: CreatedAt
}

/** Tables inside every organisation schema; queried through `db.withSchema(schemaName)`. */
export interface TenantTables {
  businesses: BusinessesTable
}

export type Tables = GlobalTables & TenantTables
