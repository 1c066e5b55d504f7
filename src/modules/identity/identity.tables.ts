import type { Generated } from 'kysely'
import type { Stamp } from '../../db/column-types.js'

export interface OrganizationsTable {
  id: string
  slug: string
  name: string
  schema_name: string
  /** The PostgreSQL cluster holding the schema (`main`: DATABASE_URL's). */
  cluster: Generated<string>
  date_created: Stamp
  date_modified: Stamp
}

export interface UsersTable {
  id: string
  email: string
  first_name: Generated<string>
  last_name: Generated<string>
  phone_number: string | null
  password_hash: string | null
  email_verified_at: Date | null
  date_created: Stamp
  date_modified: Stamp
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
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../db/tables.js' {
  interface Tables {
    'global.organizations': OrganizationsTable
    'global.users': UsersTable
    'global.memberships': MembershipsTable
  }
}
