import type { ColumnType, Generated } from 'kysely'
import type { Address, OptionalJson, Stamp } from '../../../db/column-types.js'

export interface CustomersTable {
  id: string
  business_id: string
  code: string
  name: string
  email: string | null
  phone_number: string | null
  customer_group_id: string | null
  type: Generated<string>
  status: Generated<string>
  billing_address: OptionalJson<Address>
  shipping_address: OptionalJson<Address>
  metadata: ColumnType<Record<string, string>, string | undefined, string>
  notes: string | null
  deleted_at: Date | null
  date_created: Stamp
  date_modified: Stamp
}

export interface CustomerContactsTable {
  id: string
  business_id: string
  customer_id: string
  first_name: string
  last_name: string | null
  email: string | null
  phone_number: string | null
  role: string | null
  is_primary: Generated<boolean>
  date_created: Stamp
  date_modified: Stamp
}

/** Live customers per business, kept by a trigger on customers. */
export interface CustomerCountsTable {
  business_id: string
  live: ColumnType<number, never, never>
}

declare module '../../../db/tables.js' {
  interface Tables {
    customers: CustomersTable
    customer_contacts: CustomerContactsTable
    customer_counts: CustomerCountsTable
  }
}
