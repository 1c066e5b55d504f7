import type { Generated } from 'kysely'
import type { Stamp } from '../../../db/column-types.js'

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

declare module '../../../db/tables.js' {
  interface Tables {
    carrier_configurations: CarrierConfigurationsTable
    carrier_contacts: CarrierContactsTable
  }
}
