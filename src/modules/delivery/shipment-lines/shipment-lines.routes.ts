import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { pickList } from './pick-list.service.js'
import {
  PackLineRequest,
  PickListResponse,
  PlanParams,
  ReplaceShipmentLinesRequest,
  ShipmentLineParams,
  ShipmentLinesResponse,
  ShipmentParams,
} from './shipment-lines.schemas.js'
import { getShipmentLines, packLine, replaceShipmentLines } from './shipment-lines.service.js'

const VIEW = ['Shipments', 'View'] as const
const MODIFY = ['Shipments', 'Modify'] as const
const TAGS = ['ShipmentLines']

/** What shipments carry (M2 Shipments): lines, packing, and a plan's pick list. */
export function registerShipmentLineRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/shipments/:shipmentId/lines',
    operation(VIEW, {
      operationId: 'GetShipmentLines',
      summary: 'What a shipment carries',
      description: 'Its lines in order, with the weight and volume their products add up to.',
      tags: TAGS,
      params: ShipmentParams,
      response: SingleResult('core', ShipmentLinesResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getShipmentLines(database, businessAuthOf(request), request.params.shipmentId)),
  )
  app.put(
    '/api/v1/shipments/:shipmentId/lines',
    operation(MODIFY, {
      operationId: 'ReplaceShipmentLines',
      summary: 'Set what a Pending or Assigned shipment carries',
      description:
        "Replaces every line. A line from an order line ships that line's product, at most what is left of it; the rest stays on the order as backorder. " +
        'Dispatching the plan issues the lines from stock. 409 shipment_lines_locked once the shipment has left.',
      tags: TAGS,
      params: ShipmentParams,
      body: ReplaceShipmentLinesRequest,
      response: SingleResult('core', ShipmentLinesResponse),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await replaceShipmentLines(
          database,
          businessAuthOf(request),
          request.params.shipmentId,
          request.body,
        ),
      ),
  )
  app.put(
    '/api/v1/shipments/:shipmentId/lines/:lineId/package',
    operation(MODIFY, {
      operationId: 'PackShipmentLine',
      summary: 'Say which package a line went into (packing)',
      description: 'While the shipment is Pending or Assigned; null unpacks it.',
      tags: TAGS,
      params: ShipmentLineParams,
      body: PackLineRequest,
      response: SingleResult('core', ShipmentLinesResponse),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await packLine(
          database,
          businessAuthOf(request),
          request.params.shipmentId,
          request.params.lineId,
          request.body.package,
        ),
      ),
  )
  app.get(
    '/api/v1/plans/:deliveryPlanId/pick-list',
    operation(VIEW, {
      operationId: 'GetPickList',
      summary: "A plan's pick list: by product, and by stop in stop order",
      tags: TAGS,
      params: PlanParams,
      response: SingleResult('core', PickListResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await pickList(database.db, businessAuthOf(request), request.params.deliveryPlanId)),
  )
}
