import type { ColumnType, Generated } from 'kysely'
import type { Address, Decimal, DefaultDecimal, OptionalJson, Stamp } from '../../../db/column-types.js'

export interface SuppliersTable {
  id: string
  business_id: string
  /** SUP-000001, assigned in order of creation. */
  code: string
  name: string
  email: string | null
  phone_number: string | null
  website: string | null
  /** ISO 4217, upper case. */
  currency: string
  /** PaymentTerms enum name (Prepaid, DueOnReceipt, Net7 ... Net90, EndOfMonth). */
  payment_terms: Generated<string>
  lead_time_days: Generated<number>
  tax_number: string | null
  address: OptionalJson<Address>
  remittance_address: OptionalJson<Address>
  metadata: ColumnType<Record<string, string>, string | undefined, string>
  notes: string | null
  is_active: Generated<boolean>
  deleted_at: Date | null
  date_created: Stamp
  date_modified: Stamp
}

/** A contact person at a supplier (at most one primary per supplier). */
export interface SupplierContactsTable {
  id: string
  business_id: string
  supplier_id: string
  first_name: string
  last_name: string | null
  email: string | null
  phone_number: string | null
  role: string | null
  is_primary: Generated<boolean>
  date_created: Stamp
  date_modified: Stamp
}

/** What a supplier sells a product at; lead_time_days null means the supplier's own. */
export interface SupplierProductsTable {
  id: string
  business_id: string
  supplier_id: string
  product_id: string
  supplier_sku: string | null
  unit_cost: Decimal
  minimum_order_quantity: DefaultDecimal
  lead_time_days: number | null
  is_preferred: Generated<boolean>
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    suppliers: SuppliersTable
    supplier_contacts: SupplierContactsTable
    supplier_products: SupplierProductsTable
  }
}
