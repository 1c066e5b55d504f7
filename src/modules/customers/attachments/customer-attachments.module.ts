import { defineModule } from '../../../platform/module.js'
import { registerCustomerAttachmentRoutes } from './customer-attachments.routes.js'

/** Files attached to a customer; removing one keeps the stored file. */
export const customerAttachmentsModule = defineModule({
  name: 'customers/attachments',
  core: {
    routes: registerCustomerAttachmentRoutes,
  },
  schemaNames: {
    AddCustomerFileAttachment: { body: 'AddFileAttachmentRequest', data: 'CustomerResponse' },
    RemoveCustomerFileAttachment: { data: 'CustomerResponse' },
  },
})
