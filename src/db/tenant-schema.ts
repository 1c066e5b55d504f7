import type { ColumnType, Generated } from 'kysely'

/** Timestamps that default in SQL and come back as Date. */
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>
/** `numeric`: read as an exact decimal string, written as number or string. */
type Decimal = ColumnType<string, number | string, number | string>
type OptionalDecimal = ColumnType<string | null, number | string | null | undefined, number | string | null>
/** jsonb read as a parsed value, written as JSON text. */
type OptionalJson<T> = ColumnType<T | null, string | null | undefined, string | null>

export type Address = Record<string, unknown>

export interface SequencesTable {
  business_id: string
  name: string
  last_value: Generated<string>
}

export interface SettingsTable {
  business_id: string
  key: string
  value: string
  date_created: Stamp
  date_modified: Stamp
}

export interface CustomerGroupsTable {
  id: string
  business_id: string
  name: string
  description: string | null
  deleted_at: Date | null
  date_created: Stamp
  date_modified: Stamp
}

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

export interface FilesTable {
  id: string
  business_id: string
  storage_key: string
  file_name: string
  content_type: string
  size_bytes: ColumnType<number, number, number>
  sha256: string
  uploaded_by_user_id: string | null
  date_created: Stamp
}

export interface CustomerAttachmentsTable {
  id: string
  business_id: string
  customer_id: string
  /** File | Link */
  type: string
  file_id: string | null
  title: string | null
  url: string | null
  created_by_user_id: string | null
  date_created: Stamp
}

export interface CustomerConfigurationsTable {
  business_id: string
  customer_id: string
  key: string
  value: string
  date_created: Stamp
  date_modified: Stamp
}

export interface OrdersTable {
  id: string
  business_id: string
  code: string
  customer_id: string
  /** Draft | Confirmed | Fulfilled | Cancelled */
  status: Generated<string>
  order_date: ColumnType<Date, Date | string, Date | string>
  currency: string
  delivery_address: OptionalJson<Address>
  notes: string | null
  total: ColumnType<string, number | string | undefined, number | string>
  confirmed_at: Date | null
  fulfilled_at: Date | null
  cancelled_at: Date | null
  date_created: Stamp
  date_modified: Stamp
}

export interface OrderLinesTable {
  id: string
  order_id: string
  line_number: number
  product_id: string | null
  description: string | null
  quantity: Decimal
  unit_price: Decimal
  line_total: ColumnType<string, never, never>
}

export interface ShipmentsTable {
  id: string
  business_id: string
  code: string
  order_id: string | null
  customer_id: string | null
  /** Pending | Assigned | InTransit | Delivered | Failed | Returned | Cancelled */
  status: Generated<string>
  pickup_address: OptionalJson<Address>
  delivery_address: OptionalJson<Address>
  weight: OptionalDecimal
  fulfillment_cost: ColumnType<string, number | string | undefined, number | string>
  scheduled_date: Date | null
  delivered_at: Date | null
  dimension_preset_id: string | null
  volume: OptionalDecimal
  notes: string | null
  delivery_plan_id: string | null
  stop_sequence: number | null
  assigned_at: Date | null
  dispatched_at: Date | null
  failed_at: Date | null
  returned_at: Date | null
  cancelled_at: Date | null
  fail_reason: string | null
  proof: OptionalJson<Record<string, unknown>>
  date_created: Stamp
  date_modified: Stamp
}

export interface ActivityTracesTable {
  id: string
  business_id: string
  customer_id: string
  order_id: string | null
  type: string
  note: string | null
  /** User | System */
  source: string
  created_by_user_id: string | null
  occurred_at: ColumnType<Date, Date | string, Date | string>
  date_created: Stamp
}

/** Live customers per business, kept by a trigger on customers. */
export interface CustomerCountsTable {
  business_id: string
  live: ColumnType<string, never, never>
}

export interface CustomerTenantTables {
  customer_counts: CustomerCountsTable
  sequences: SequencesTable
  settings: SettingsTable
  customer_groups: CustomerGroupsTable
  customers: CustomersTable
  customer_contacts: CustomerContactsTable
  files: FilesTable
  customer_attachments: CustomerAttachmentsTable
  customer_configurations: CustomerConfigurationsTable
  orders: OrdersTable
  order_lines: OrderLinesTable
  shipments: ShipmentsTable
  activity_traces: ActivityTracesTable
}
