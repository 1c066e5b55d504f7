import type { Generated } from 'kysely'
import type { Address, OptionalJson, Stamp } from '../../../db/column-types.js'

export interface BusinessIndexTable {
  id: string
  organization_id: string
  parent_business_id: string | null
  date_created: Stamp
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
  address: OptionalJson<Address>
  currency: Generated<string>
  timezone: Generated<string>
  requires_order_integration: Generated<boolean>
  requires_order_fulfillment: Generated<boolean>
  requires_accounting_integration: Generated<boolean>
  requires_dispatch_builder: Generated<boolean>
  multiple_branches: Generated<boolean>
  fulfillment_types: Generated<string[]>
  add_ons: Generated<string[]>
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    'global.businesses': BusinessIndexTable
    businesses: BusinessesTable
  }
}
