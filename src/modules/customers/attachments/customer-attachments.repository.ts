import type { Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'

type Trx = Transaction<Tables>

export interface Scope {
  schemaName: string
  businessId: string
}

export interface NewAttachment {
  id: string
  customerId: string
  type: 'File' | 'Link'
  fileId: string | null
  title: string | null
  url: string | null
  createdByUserId: string
}

export async function insertAttachment(trx: Trx, scope: Scope, attachment: NewAttachment) {
  await trx
    .withSchema(scope.schemaName)
    .insertInto('customer_attachments')
    .values({
      id: attachment.id,
      business_id: scope.businessId,
      customer_id: attachment.customerId,
      type: attachment.type,
      file_id: attachment.fileId,
      title: attachment.title,
      url: attachment.url,
      created_by_user_id: attachment.createdByUserId,
    })
    .execute()
}

/** The file entry already linking this file to this customer, if any. */
export async function findFileEntry(trx: Trx, scope: Scope, customerId: string, fileId: string) {
  return trx
    .withSchema(scope.schemaName)
    .selectFrom('customer_attachments')
    .select('id')
    .where('business_id', '=', scope.businessId)
    .where('customer_id', '=', customerId)
    .where('file_id', '=', fileId)
    .executeTakeFirst()
}

/** Removes only the entry: the file row and its stored content stay. */
export async function deleteAttachment(trx: Trx, scope: Scope, customerId: string, attachmentId: string) {
  return trx
    .withSchema(scope.schemaName)
    .deleteFrom('customer_attachments')
    .where('id', '=', attachmentId)
    .where('business_id', '=', scope.businessId)
    .where('customer_id', '=', customerId)
    .returning(['type', 'title', 'url', 'file_id'])
    .executeTakeFirst()
}
