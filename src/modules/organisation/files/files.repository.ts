import type { Executor } from '../../../db/tables.js'
import type { FilePurpose } from './files.tables.js'

/** What a signature or a photo of a delivery may be: the types POST /api/files/proof takes. */
export const PROOF_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'] as const

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

/**
 * Marks the business's proof-type images among `ids` as Proof (Shipments View may then download
 * them); with `uploadedBy`, only that user's uploads. Files already Proof are left as they are.
 */
export async function markProofImages(
  db: Executor,
  schemaName: string,
  businessId: string,
  ids: readonly string[],
  uploadedBy: string | null,
) {
  if (ids.length === 0) return
  let update = db
    .withSchema(schemaName)
    .updateTable('files')
    .set({ purpose: 'Proof' })
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .where('purpose', '=', 'Attachment')
    .where('content_type', 'in', PROOF_TYPES)
  if (uploadedBy !== null) update = update.where('uploaded_by_user_id', '=', uploadedBy)
  await update.execute()
}
