import type { ColumnType } from 'kysely'
import type { Stamp } from '../../../db/column-types.js'

/** Attachment: read with Customers View; Proof (a delivery's signature or photo): also with Shipments View. */
export type FilePurpose = 'Attachment' | 'Proof'

export interface FilesTable {
  id: string
  business_id: string
  storage_key: string
  file_name: string
  content_type: string
  size_bytes: ColumnType<number, number, number>
  sha256: string
  uploaded_by_user_id: string | null
  purpose: ColumnType<FilePurpose, FilePurpose | undefined, FilePurpose>
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    files: FilesTable
  }
}
