import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  ArrivedRequest,
  DeliveredRequest,
  FailedRequest,
  ProofShipmentParams,
  ShipmentProofResponse,
} from './proof-of-delivery.schemas.js'
import { arrive, deliver, fail, shipmentProof } from './proof-of-delivery.service.js'

const TAGS = ['ProofOfDelivery']
const ONE = SingleResult('core', ShipmentProofResponse)
const MODIFY = ['Shipments', 'Modify'] as const
const FILES =
  'Proof files are uploaded first with POST /api/files/single; a file of another business, of another type or too large is a 400 naming the field.'

/** Stop operations a driver's app calls per stop, and the proof they leave. */
export function registerProofRoutes(app: HttpApp, deps: AppDeps) {
  app.get(
    '/api/v1/shipments/:shipmentId/proof',
    operation(['Shipments', 'View'], {
      operationId: 'GetShipmentProof',
      summary: "A shipment's stop operations and proof of delivery",
      tags: TAGS,
      params: ProofShipmentParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await shipmentProof(deps.database, businessAuthOf(request), request.params.shipmentId)),
  )
  app.post(
    '/api/v1/shipments/:shipmentId/stop/arrived',
    {
      preValidation: async (request) => {
        request.body ??= {}
      },
      ...operation(MODIFY, {
        operationId: 'StopArrived',
        summary: 'The driver arrived at the stop of an InTransit shipment',
        description:
          'Once per shipment and plan: again is a 409 stop_already_arrived; a shipment not InTransit is a 409 shipment_not_in_transit. The body is optional.',
        tags: TAGS,
        params: ProofShipmentParams,
        body: ArrivedRequest,
        response: ONE,
        errors: [400, 404, 409],
      }),
    },
    async (request) =>
      single('core', await arrive(deps, businessAuthOf(request), request.params.shipmentId, request.body)),
  )
  app.post(
    '/api/v1/shipments/:shipmentId/stop/delivered',
    operation(MODIFY, {
      operationId: 'StopDelivered',
      summary: 'InTransit -> Delivered with proof: recipient, signature, photos, point and time',
      description: `${FILES} Any status but InTransit is a 409 invalid_status_transition. Publishes shipment.delivered with the proof links.`,
      tags: TAGS,
      params: ProofShipmentParams,
      body: DeliveredRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await deliver(deps, businessAuthOf(request), request.params.shipmentId, request.body)),
  )
  app.post(
    '/api/v1/shipments/:shipmentId/stop/failed',
    operation(MODIFY, {
      operationId: 'StopFailed',
      summary: 'InTransit -> Failed with the reason (and optional photos, point and time)',
      description: `${FILES} Any status but InTransit is a 409 invalid_status_transition. When its plan completes the shipment goes back to Pending (Replan) or to Returned (ReturnToStock), as afterFailure or else the setting delivery.failedDeliveryAction says. Publishes shipment.failed.`,
      tags: TAGS,
      params: ProofShipmentParams,
      body: FailedRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await fail(deps, businessAuthOf(request), request.params.shipmentId, request.body)),
  )
}
