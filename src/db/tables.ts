import type { ColumnType, Generated } from 'kysely'
import type { DeliveryTenantTables } from './delivery-schema.js'
import type { ManufacturingTenantTables } from './manufacturing-schema.js'
import type { CustomerTenantTables } from './tenant-schema.js'

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
  /** Owner | Admin | Member | Custom (then custom_role_id names the role) */
  role: string
  custom_role_id: string | null
  invited_by_user_id: string | null
  /** What the inviter wrote; shown instead of the account's names until the invitation is accepted. */
  invited_first_name: string | null
  invited_last_name: string | null
  /** The address as the inviter wrote it; shown until the invitation is accepted. */
  invited_email: string | null
  /** Active | Invited */
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
export interface TenantTables extends CustomerTenantTables, ManufacturingTenantTables, DeliveryTenantTables {
  businesses: BusinessesTable
}

export type Tables = GlobalTables & CredentialTables & TenantTables

export interface InstanceSecretsTable {
  name: string
  value: Buffer
  date_created: CreatedAt
}

export interface SigningKeysTable {
  kid: string
  algorithm: string
  /** Public halves only: a private key never reaches the database. */
  public_jwk: ColumnType<Record<string, unknown>, string, string>
  active: Generated<boolean>
  date_created: CreatedAt
  /** Replaced (rotation) or exposed (stored by an earlier version): verifies old tokens until they expire. */
  retired_at: Date | null
}

export interface RolesTable {
  id: string
  organization_id: string
  name: string
  description: string | null
  permissions: ColumnType<Record<string, number>, string, string>
  date_created: CreatedAt
  date_modified: CreatedAt
}

export interface SessionsTable {
  id: string
  user_id: string
  organization_id: string
  business_id: string | null
  scopes: ColumnType<Record<string, number> | null, string | null, string | null>
  expires_at: Date
  revoked_at: Date | null
  revoked_reason: string | null
  date_created: CreatedAt
}

export interface RefreshTokensTable {
  token_hash: Buffer
  session_id: string
  expires_at: Date
  used_at: Date | null
  date_created: CreatedAt
}

export interface OneTimeTokensTable {
  token_hash: Buffer
  user_id: string
  organization_id: string
  business_id: string
  target_app: string
  scopes: ColumnType<Record<string, number> | null, string | null, string | null>
  expires_at: Date
  used_at: Date | null
  date_created: CreatedAt
}

export interface ApiKeysTable {
  id: string
  organization_id: string
  business_id: string
  created_by_user_id: string
  label: string | null
  key_hash: Buffer
  key_prefix: string
  scopes: string | null
  expires_at: Date | null
  last_used_at: Date | null
  revoked_at: Date | null
  date_created: CreatedAt
}

export interface EmailTokensTable {
  token_hash: Buffer
  user_id: string
  purpose: string
  organization_id: string | null
  expires_at: Date
  used_at: Date | null
  date_created: CreatedAt
}

export interface RateLimitsTable {
  key: string
  window_start: Date
  hits: number
}

export interface UsedSelectionTokensTable {
  jti: string
  expires_at: Date
}

export interface CredentialTables {
  'global.instance_secrets': InstanceSecretsTable
  'global.signing_keys': SigningKeysTable
  'global.roles': RolesTable
  'global.sessions': SessionsTable
  'global.refresh_tokens': RefreshTokensTable
  'global.one_time_tokens': OneTimeTokensTable
  'global.api_keys': ApiKeysTable
  'global.email_tokens': EmailTokensTable
  'global.rate_limits': RateLimitsTable
  'global.used_selection_tokens': UsedSelectionTokensTable
}
