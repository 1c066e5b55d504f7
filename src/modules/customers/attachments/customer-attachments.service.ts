import { newId } from '../../../db/ids.js'
import type { Executor } from '../../../db/tables.js'
import { invalidField, type Reason, validationFailed } from '../../../errors.js'
import { findFile } from '../../organisation/index.js'
import { addTrace } from '../activity/index.js'
import type { CustomerResponse } from '../customers/index.js'
import { type CustomerAuth, loadCustomerResponse, lockLiveCustomer } from '../customers/index.js'
import { attachmentNotFound, fileNotOfBusiness } from './customer-attachments.errors.js'
import * as repository from './customer-attachments.repository.js'
import type { AddFileAttachmentRequest } from './customer-attachments.schemas.js'

type Entry =
  | { type: 'File'; fileId: string; title: string | null }
  | { type: 'Link'; title: string; url: string }

/** Checks the request's shape (no database needed); every problem is reported at once. */
function entryFrom(request: AddFileAttachmentRequest): Entry {
  const reasons: Reason[] = []
  const title = request.title?.trim() || null
  if ((request.type ?? 'File') === 'Link') {
    if (!title) reasons.push({ field: 'title', message: 'is required for a Link' })
    const url = request.url?.trim() ?? ''
    if (!url) reasons.push({ field: 'url', message: 'is required for a Link' })
    else if (!isHttpUrl(url)) reasons.push({ field: 'url', message: 'must be an absolute http or https URL' })
    if (reasons.length > 0) throw validationFailed(reasons)
    return { type: 'Link', title: title as string, url }
  }
  const { fileAttachmentId, fileId } = request
  if (fileAttachmentId && fileId && fileAttachmentId.toLowerCase() !== fileId.toLowerCase()) {
    throw invalidField('fileAttachmentId', 'differs from fileId (its alias); send one of them')
  }
  const id = fileAttachmentId ?? fileId
  if (!id)
    throw invalidField('fileAttachmentId', 'is required for a File: upload with POST /api/files/single first')
  return { type: 'File', fileId: id.toLowerCase(), title }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

const trace = (
  auth: CustomerAuth,
  customerId: string,
  type: 'AttachmentAdded' | 'AttachmentRemoved',
  note: string,
) => ({
  businessId: auth.businessId,
  customerId,
  type,
  note,
  source: 'System' as const,
  userId: auth.userId,
})

/**
 * Adds a file or link entry to the customer. The customer row is locked for the change, so a
 * file attached twice at once still yields one entry: attaching a file that is already there
 * leaves the customer as it is.
 */
export async function addCustomerAttachment(
  db: Executor,
  auth: CustomerAuth,
  customerId: string,
  request: AddFileAttachmentRequest,
): Promise<CustomerResponse> {
  const entry = entryFrom(request)
  await db.transaction().execute(async (trx) => {
    await lockLiveCustomer(trx, auth, customerId)
    if (entry.type === 'Link') {
      await repository.insertAttachment(trx, auth, {
        id: newId(),
        customerId,
        type: 'Link',
        fileId: null,
        title: entry.title,
        url: entry.url,
        createdByUserId: auth.userId,
      })
      await addTrace(
        trx,
        auth.schemaName,
        trace(auth, customerId, 'AttachmentAdded', `${entry.title} (${entry.url})`),
      )
      return
    }
    const file = await findFile(trx, auth.schemaName, auth.businessId, entry.fileId)
    if (!file) throw fileNotOfBusiness()
    if (await repository.findFileEntry(trx, auth, customerId, file.id)) return
    await repository.insertAttachment(trx, auth, {
      id: newId(),
      customerId,
      type: 'File',
      fileId: file.id,
      title: entry.title,
      url: null,
      createdByUserId: auth.userId,
    })
    await addTrace(
      trx,
      auth.schemaName,
      trace(auth, customerId, 'AttachmentAdded', entry.title ?? file.file_name),
    )
  })
  return loadCustomerResponse(db, auth, customerId)
}

/** Removes the entry only; a file entry's stored file stays and can still be downloaded. */
export async function removeCustomerAttachment(
  db: Executor,
  auth: CustomerAuth,
  customerId: string,
  attachmentId: string,
): Promise<CustomerResponse> {
  await db.transaction().execute(async (trx) => {
    await lockLiveCustomer(trx, auth, customerId)
    const removed = await repository.deleteAttachment(trx, auth, customerId, attachmentId)
    if (!removed) throw attachmentNotFound()
    let note = removed.title ?? removed.url ?? 'attachment'
    if (!removed.title && removed.file_id) {
      const file = await findFile(trx, auth.schemaName, auth.businessId, removed.file_id)
      note = file?.file_name ?? note
    }
    await addTrace(trx, auth.schemaName, trace(auth, customerId, 'AttachmentRemoved', note))
  })
  return loadCustomerResponse(db, auth, customerId)
}
