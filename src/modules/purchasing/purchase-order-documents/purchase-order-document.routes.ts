import type { FastifyReply } from 'fastify'
import { businessAuthOf } from '../../../http/auth-hook.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import { PdfContent, sendPdf } from '../../../http/pdf.js'
import type { AppDeps } from '../../../platform/deps.js'
import { PurchaseOrderParams } from '../purchase-orders/index.js'
import { purchaseOrderDocument } from './purchase-order-document.service.js'

export function registerPurchaseOrderDocumentRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/purchase-orders/:purchaseOrderId/document',
    operation(['PurchaseOrders', 'View'], {
      operationId: 'GetPurchaseOrderDocument',
      summary: 'A purchase order as a PDF, to send to the supplier',
      description:
        'The supplier, terms, expected delivery, each line (SKU, product, quantity, unit cost, line total) and the total.',
      tags: ['Documents'],
      params: PurchaseOrderParams,
      response: PdfContent,
      errors: [400, 404],
    }),
    async (request, reply) => {
      const document = await purchaseOrderDocument(
        database,
        businessAuthOf(request),
        request.params.purchaseOrderId,
      )
      return sendPdf(reply as unknown as FastifyReply, document.name, document.pdf)
    },
  )
}
