import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { CustomerParams, CustomerResponse } from '../customers/index.js'
import { AddFileAttachmentRequest, AttachmentParams } from './customer-attachments.schemas.js'
import { addCustomerAttachment, removeCustomerAttachment } from './customer-attachments.service.js'

/** Core API: a customer's attachments (uploaded files and links). */
export function registerCustomerAttachmentRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/v1/Customers/:customerId/attachments',
    operation(['Customers', 'Modify'], {
      operationId: 'AddCustomerFileAttachment',
      summary: 'Attach an uploaded file or a link to a customer',
      description:
        'Step 2 of attaching a file: first upload it with POST /api/files/single, then send its id as `fileAttachmentId` (or `fileId`); ' +
        'a file that is not one of this business is a 400 naming fileAttachmentId, and a file already attached to this customer is not ' +
        'added twice. `type: Link` needs `title` and an http(s) `url` (400 naming each missing one); a link carries no file. Records an ' +
        'AttachmentAdded trace and returns the customer.',
      tags: ['Customers'],
      params: CustomerParams,
      body: AddFileAttachmentRequest,
      response: SingleResult('core', CustomerResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await addCustomerAttachment(
          deps.database.db,
          businessAuthOf(request),
          request.params.customerId,
          request.body,
        ),
      ),
  )

  app.delete(
    '/api/v1/Customers/:customerId/attachments/:attachmentId',
    operation(['Customers', 'Delete'], {
      operationId: 'RemoveCustomerFileAttachment',
      summary: 'Remove an attachment entry from a customer',
      description:
        'Removes the entry (attachmentId is the entry id from the customer’s `attachments`). For a file entry the stored file itself ' +
        'stays and can still be downloaded with GET /api/files/{fileId}. Records an AttachmentRemoved trace and returns the customer.',
      tags: ['Customers'],
      params: AttachmentParams,
      response: SingleResult('core', CustomerResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await removeCustomerAttachment(
          deps.database.db,
          businessAuthOf(request),
          request.params.customerId,
          request.params.attachmentId,
        ),
      ),
  )
}
