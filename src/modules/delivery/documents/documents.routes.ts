import { Type } from '@sinclair/typebox'
import type { FastifyReply } from 'fastify'
import { businessAuthOf } from '../../../http/auth-hook.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import { PdfContent, sendPdf } from '../../../http/pdf.js'
import { Uuid } from '../../../http/schema-helpers.js'
import type { AppDeps } from '../../../platform/deps.js'
import { createFileStorage } from '../../organisation/index.js'
import { deliveryNote, pickList, routeSheet } from './documents.service.js'

const TAGS = ['Documents']
const VIEW = ['Shipments', 'View'] as const
const ShipmentParams = Type.Object({ shipmentId: Uuid() })
const PlanParams = Type.Object({ dispatchId: Uuid() })

/** Printable documents of shipments and plans (PDF). */
export function registerDocumentRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  const storage = createFileStorage(deps.config)
  const pdf = (reply: unknown, document: { name: string; pdf: Buffer }) =>
    sendPdf(reply as FastifyReply, document.name, document.pdf)
  app.get(
    '/api/v1/shipments/:shipmentId/delivery-note',
    operation(VIEW, {
      operationId: 'GetDeliveryNote',
      summary: "A shipment's delivery note (PDF), with its proof of delivery once delivered",
      description:
        'Sender, customer, address, plan, expected day, weight and volume; once Delivered, who received it, when, where, the number of photos and the signature image.',
      tags: TAGS,
      params: ShipmentParams,
      response: PdfContent,
      errors: [400, 404],
    }),
    async (request, reply) =>
      pdf(
        reply,
        await deliveryNote(database, await storage, businessAuthOf(request), request.params.shipmentId),
      ),
  )
  app.get(
    '/api/v1/plans/:dispatchId/route-sheet',
    operation(VIEW, {
      operationId: 'GetRouteSheet',
      summary: "A delivery plan's route sheet (PDF): its stops in order",
      tags: TAGS,
      params: PlanParams,
      response: PdfContent,
      errors: [400, 404],
    }),
    async (request, reply) =>
      pdf(reply, await routeSheet(database, businessAuthOf(request), request.params.dispatchId)),
  )
  app.get(
    '/api/v1/plans/:dispatchId/pick-list.pdf',
    operation(VIEW, {
      operationId: 'GetPickListPdf',
      summary: "A delivery plan's pick list (PDF): what to load for each stop",
      description:
        'Printed from the same figures as GetPickList: by product and by stop in stop order when the shipments carry lines; ' +
        'otherwise each stop in order with its shipment, customer, weight and volume, and the totals.',
      tags: TAGS,
      params: PlanParams,
      response: PdfContent,
      errors: [400, 404],
    }),
    async (request, reply) =>
      pdf(reply, await pickList(database, businessAuthOf(request), request.params.dispatchId)),
  )
}
