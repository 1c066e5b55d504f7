import type { ColumnType, Generated } from 'kysely'

/** Timestamps that default in SQL and come back as Date. */
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>
type When = ColumnType<Date, Date | string, Date | string>
type OptionalWhen = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
/** `numeric`: read as an exact decimal string, written as number or string. */
type Decimal = ColumnType<string, number | string, number | string>
type DefaultDecimal = ColumnType<string, number | string | undefined, number | string>
type OptionalDecimal = ColumnType<string | null, number | string | null | undefined, number | string | null>

export interface ProductsTable {
  id: string
  business_id: string
  sku: string
  name: string
  description: string | null
  /** RawMaterial | Component | FinishedGood | Service */
  type: string
  unit_of_measure: string
  barcode: string | null
  unit_cost: OptionalDecimal
  unit_price: OptionalDecimal
  weight: OptionalDecimal
  weight_unit: string | null
  length: OptionalDecimal
  width: OptionalDecimal
  height: OptionalDecimal
  dimension_unit: string | null
  reorder_level: OptionalDecimal
  active: Generated<boolean>
  on_hand: DefaultDecimal
  average_cost: DefaultDecimal
  archived_at: OptionalWhen
  date_created: Stamp
  date_modified: Stamp
}

export interface StockLedgerTable {
  id: string
  seq: Generated<string>
  business_id: string
  product_id: string
  /** Receipt | Issue | Adjustment | WorkOrderIssue | WorkOrderReceipt */
  type: string
  quantity: Decimal
  received_cost: OptionalDecimal
  effective_date: When
  reason: string | null
  reference: string | null
  work_order_id: string | null
  created_by_user_id: string | null
  date_created: Stamp
}

/** The running values after every 64th ledger entry of a product and after its last (head; see stock_revalue). */
export interface StockCheckpointsTable {
  product_id: string
  effective_date: When
  seq: string
  balance: Decimal
  stock_value: Decimal
  average_cost: Decimal
  /** the lowest balance after any entry since the checkpoint before */
  min_balance: Decimal
  head: Generated<boolean>
}

export interface BomsTable {
  id: string
  business_id: string
  product_id: string
  code: string
  name: string
  revision: ColumnType<number, number | undefined, number>
  /** Draft | Active | Archived */
  status: Generated<string>
  output_quantity: Decimal
  notes: string | null
  revised_from_id: string | null
  activated_at: OptionalWhen
  archived_at: OptionalWhen
  date_created: Stamp
  date_modified: Stamp
}

export interface BomLinesTable {
  id: string
  bom_id: string
  line_number: number
  product_id: string
  quantity: Decimal
  scrap_percent: DefaultDecimal
  notes: string | null
}

export interface BomActivationsTable {
  product_id: string
  bom_id: string
  active_from: When
  active_to: OptionalWhen
}

export interface WorkOrdersTable {
  id: string
  business_id: string
  code: string
  bom_id: string
  product_id: string
  quantity: Decimal
  /** Draft | Released | InProgress | Completed | Cancelled */
  status: Generated<string>
  planned_start: OptionalWhen
  planned_end: OptionalWhen
  notes: string | null
  standard_unit_cost: OptionalDecimal
  standard_total_cost: OptionalDecimal
  actual_unit_cost: OptionalDecimal
  actual_total_cost: OptionalDecimal
  quantity_produced: OptionalDecimal
  effective_date: OptionalWhen
  released_at: OptionalWhen
  started_at: OptionalWhen
  completed_at: OptionalWhen
  cancelled_at: OptionalWhen
  date_created: Stamp
  date_modified: Stamp
}

export interface DimensionPresetsTable {
  id: string
  business_id: string
  name: string
  length: Decimal
  width: Decimal
  height: Decimal
  dimension_unit: string
  max_weight: OptionalDecimal
  weight_unit: string
  is_default: Generated<boolean>
  country: string | null
  date_created: Stamp
  date_modified: Stamp
}

export interface ManufacturingTenantTables {
  products: ProductsTable
  stock_ledger: StockLedgerTable
  stock_checkpoints: StockCheckpointsTable
  boms: BomsTable
  bom_lines: BomLinesTable
  bom_activations: BomActivationsTable
  work_orders: WorkOrdersTable
  dimension_presets: DimensionPresetsTable
}
