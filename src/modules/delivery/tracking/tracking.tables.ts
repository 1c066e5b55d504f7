import type { ColumnType, Generated } from 'kysely'
import type { OptionalStamp, Stamp } from '../../../db/column-types.js'

export interface TrackingLinksTable {
  token: string
  schema_name: string
  business_id: string
  shipment_id: string
  email_to: string | null
  mail_due: Generated<boolean>
  mail_attempts: ColumnType<number, number | undefined, number>
  emailed_at: OptionalStamp
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    'global.tracking_links': TrackingLinksTable
  }
}
