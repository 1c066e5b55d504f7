import type { Executor } from '../../../db/tables.js'
import type { FilePurpose } from './files.tables.js'

export const FILE_COLUMNS = [
  'id',
  'storage_key',
  'file_name',
  'content_type',
  'size_bytes',
  'sha256',
  'date_created',
  'purpose',
] as const

export interface NewFile {
  id: string
  businessId: string
  storageKey: string
  fileName: string
  contentType: string
  sizeBytes: number
  sha256: string
  uploadedByUserId: string
  purpose: FilePurpose
}

export async function insertFile(db: Executor, schemaName: string, file: NewFile) {
  return db
    .withSchema(schemaName)
    .insertInto('files')
    .values({
      id: file.id,
      business_id: file.businessId,
      storage_key: file.storageKey,
      file_name: file.fileName,
      content_type: file.contentType,
      size_bytes: file.sizeBytes,
      sha256: file.sha256,
      uploaded_by_user_id: file.uploadedByUserId,
      purpose: file.purpose,
    })
    .returning(FILE_COLUMNS)
    .executeTakeFirstOrThrow()
}

/** A file of this business, or undefined (another business's or organisation's id looks the same as none). */
export async function findFile(db: Executor, schemaName: string, businessId: string, id: string) {
  return db
    .withSchema(schemaName)
    .selectFrom('files')
    .select(FILE_COLUMNS)
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .executeTakeFirst()
}
