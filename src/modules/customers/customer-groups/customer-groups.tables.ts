import type { Stamp } from '../../../db/column-types.js'

export interface CustomerGroupsTable {
  id: string
  business_id: string
  name: string
  description: string | null
  deleted_at: Date | null
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    customer_groups: CustomerGroupsTable
  }
}
