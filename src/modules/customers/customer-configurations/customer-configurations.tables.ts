import type { Stamp } from '../../../db/column-types.js'

export interface CustomerConfigurationsTable {
  business_id: string
  customer_id: string
  key: string
  value: string
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    customer_configurations: CustomerConfigurationsTable
  }
}
