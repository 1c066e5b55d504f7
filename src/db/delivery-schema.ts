import type { ColumnType, Generated } from 'kysely'

/** Timestamps that default in SQL and come back as Date. */
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>
type OptionalStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
type OptionalDecimal = ColumnType<string | null, number | string | null | undefined, number | string | null>
type OptionalJson<T> = ColumnType<T | null, string | null | undefined, string | null>

export interface VehiclesTable {
  id: string
  business_id: string
  registration: string
  name: string
  max_weight: OptionalDecimal
  max_volume: OptionalDecimal
  active: Generated<boolean>
  date_created: Stamp
  date_modified: Stamp
}

export interface DeliveryZonesTable {
  id: string
  business_id: string
  name: string
  colour: string | null
  active: Generated<boolean>
  geometry: ColumnType<unknown, string, string>
  min_longitude: number
  min_latitude: number
  max_longitude: number
  max_latitude: number
  date_created: Stamp
  date_modified: Stamp
}

export interface DeliveryPlansTable {
  id: string
  business_id: string
  code: string
  name: string | null
  /** Draft | Scheduled | Dispatched | Completed | Cancelled */
  status: Generated<string>
  scheduled_date: ColumnType<string, string, string>
  vehicle_id: string | null
  driver_name: string | null
  carrier_id: number | null
  delivery_zone_ids: ColumnType<string[], string[] | undefined, string[]>
  depot: OptionalJson<Record<string, unknown>>
  distance_km: OptionalDecimal
  notes: string | null
  scheduled_at: OptionalStamp
  dispatched_at: OptionalStamp
  completed_at: OptionalStamp
  cancelled_at: OptionalStamp
  autobatched_at: OptionalStamp
  date_created: Stamp
  date_modified: Stamp
}

export interface DispatchCodesTable {
  business_id: string
  code: string
  date_created: Stamp
}

export interface CarrierConfigurationsTable {
  id: string
  business_id: string
  carrier_id: number
  enabled: Generated<boolean>
  is_default: Generated<boolean>
  account_reference: string | null
  credentials: Buffer | null
  date_created: Stamp
  date_modified: Stamp
}

export interface CarrierContactsTable {
  id: string
  business_id: string
  carrier_id: number | null
  first_name: string
  last_name: string | null
  email: string | null
  phone_number: string | null
  role: string | null
  date_created: Stamp
  date_modified: Stamp
}

export interface NotificationsTable {
  id: string
  seq: ColumnType<number, never, never>
  business_id: string
  user_id: string
  title: string
  message: string
  read: Generated<boolean>
  priority: Generated<string>
  type: Generated<string>
  level: Generated<string>
  action_link: string | null
  entity_type: Generated<string>
  entity_id: string | null
  date_created: Stamp
  date_modified: Stamp
}

/** Delivery and notification tables inside every organisation schema. */
export interface DeliveryTenantTables {
  vehicles: VehiclesTable
  delivery_zones: DeliveryZonesTable
  delivery_plans: DeliveryPlansTable
  dispatch_codes: DispatchCodesTable
  carrier_configurations: CarrierConfigurationsTable
  carrier_contacts: CarrierContactsTable
  notifications: NotificationsTable
}
