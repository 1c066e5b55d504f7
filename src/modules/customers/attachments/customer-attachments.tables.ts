import type { Stamp } from '../../../db/column-types.js'

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

declare module '../../../db/tables.js' {
  interface Tables {
    customer_attachments: CustomerAttachmentsTable
  }
}
