import { defineModule } from '../../../platform/module.js'
import { registerPurchaseOrderDocumentRoutes } from './purchase-order-document.routes.js'

/** The purchase order as a printable document for the supplier (PDF; the Documents tag is delivery/documents'). */
export const purchaseOrderDocumentsModule = defineModule({
  name: 'purchasing/purchase-order-documents',
  core: { routes: registerPurchaseOrderDocumentRoutes },
})
