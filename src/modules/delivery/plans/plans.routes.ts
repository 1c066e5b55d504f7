import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { ShipmentResponse } from '../shipments/index.js'
import { autobatch } from './autobatch.service.js'
import { overview, timeline, unassignedShipments } from './plan-reads.service.js'
import { addShipment, removeShipment, reorderStops } from './plan-shipments.service.js'
import {
  AddShipmentRequest,
  DeliveryPlanTimelineResponse,
  DispatchCodeResponse,
  DispatchOverviewResponse,
  DispatchParams,
  DispatchRequest,
  DispatchResponse,
  DispatchUpdateRequest,
  PLAN_DAY_RULE,
  PlanParams,
  PlanShipmentParams,
  PlanStopsRequest,
  PlansQuery,
  ShipmentIdParams,
} from './plans.schemas.js'
import {
  deletePlan,
  getPlan,
  listPlans,
  PLAN_FIELDS,
  planOfShipment,
  reserveCode,
  saveDispatch,
  updatePlan,
} from './plans.service.js'

const TAGS = ['DeliveryPlans']
const ONE = SingleResult('core', DispatchResponse)
const BOOLEAN = SingleResult('core', Type.Boolean())
const VIEW = ['Shipments', 'View'] as const
const MODIFY = ['Shipments', 'Modify'] as const

/** Delivery plans (dispatches, M2): codes, plans with their shipments in stop order, autobatch, timeline. */
export function registerPlanRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  app.get(
    '/api/v1/plans/overview',
    operation(VIEW, {
      operationId: 'GetDispatchOverview',
      summary: 'Plan counts by status, today’s plans and the number of unassigned shipments',
      description: 'Today is the business’s own day, in its time zone.',
      tags: TAGS,
      response: SingleResult('core', DispatchOverviewResponse),
      errors: [],
    }),
    async (request) => single('core', await overview(database, businessAuthOf(request))),
  )
  app.get(
    '/api/v1/plans',
    operation(VIEW, {
      operationId: 'GetTrips',
      summary: 'Delivery plans, newest scheduled date first',
      description:
        "The contract's parameters: page (default 1), perPage (1..100, default 50), from/to (scheduled days, inclusive: a date, or a date-time read as its day in the business's time zone) and status. " +
        'The standard list parameters as well: Page is page (names match regardless of letter case; both given is a 400 naming page), PageSize is perPage (both with different values: a 400 naming both), ' +
        `$filter/$orderby over ${Object.keys(PLAN_FIELDS).join(', ')} (scheduledDate compares with a date such as 2026-11-24), and $search over code, name, driverName and notes. ` +
        'Bad values are a 400 naming the parameter, and so is a parameter this list does not take.',
      tags: TAGS,
      querystring: PlansQuery,
      response: PagedResult('core', DispatchResponse),
      errors: [400],
    }),
    async (request) => listPlans(database, businessAuthOf(request), request.query),
  )
  app.post(
    '/api/v1/plans',
    operation(MODIFY, {
      operationId: 'SaveDispatch',
      summary: 'Create a Draft plan under a reserved code (idempotent on the code)',
      description: `scheduledDate: ${PLAN_DAY_RULE}. Saving again with the same code returns the same plan. An unreserved code, or a vehicle, zone, carrier or shipment the business does not have, is a 400 naming it; a shipment on another plan is a 409.`,
      tags: TAGS,
      body: DispatchRequest,
      response: ONE,
      errors: [400, 409],
    }),
    async (request) => single('core', await saveDispatch(database, businessAuthOf(request), request.body)),
  )
  app.get(
    '/api/v1/plans/code',
    operation(VIEW, {
      operationId: 'GetDispatchCode',
      summary: 'Reserve the next dispatch code, <prefix>-<yyyymmdd>-<sequence>',
      description:
        'Unique per business even under parallel requests; the prefix is the dispatch.codePrefix setting; the day is the business’s own, in its time zone (business timezone).',
      tags: TAGS,
      response: SingleResult('core', DispatchCodeResponse),
      errors: [],
    }),
    async (request) => single('core', await reserveCode(database, businessAuthOf(request))),
  )
  app.get(
    '/api/v1/plans/unassigned-shipments',
    operation(VIEW, {
      operationId: 'GetUnassignedShipments',
      summary: 'Pending or Assigned shipments on no plan',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', ShipmentResponse),
      errors: [400],
    }),
    async (request) => unassignedShipments(database, businessAuthOf(request), request.query),
  )
  app.get(
    '/api/v1/plans/in-shipment/:shipmentId',
    operation(VIEW, {
      operationId: 'GetDispatchByShipmentId',
      summary: 'The plan that holds a shipment',
      description: '404 when the shipment is unknown or on no plan.',
      tags: TAGS,
      params: ShipmentIdParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await planOfShipment(database, businessAuthOf(request), request.params.shipmentId)),
  )
  app.get(
    '/api/v1/plans/:dispatchId',
    operation(VIEW, {
      operationId: 'GetDispatch',
      summary: 'One plan with its shipments in stop order',
      tags: TAGS,
      params: DispatchParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getPlan(database, businessAuthOf(request), request.params.dispatchId)),
  )
  app.delete(
    '/api/v1/plans/:dispatchId',
    operation(['Shipments', 'Delete'], {
      operationId: 'DeleteDispatch',
      summary: 'Delete a plan; its shipments go back to unassigned',
      description: 'A Dispatched or Completed plan is a 409.',
      tags: TAGS,
      params: DispatchParams,
      response: BOOLEAN,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await deletePlan(database, businessAuthOf(request), request.params.dispatchId)),
  )
  app.put(
    '/api/v1/plans/:deliveryPlanId',
    operation(MODIFY, {
      operationId: 'UpdateDispatch',
      summary: 'Replace the fields of a Draft or Scheduled plan',
      description: `scheduledDate: ${PLAN_DAY_RULE}. A Dispatched, Completed or Cancelled plan is a 409.`,
      tags: TAGS,
      params: PlanParams,
      body: DispatchUpdateRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updatePlan(database, businessAuthOf(request), request.params.deliveryPlanId, request.body),
      ),
  )
  app.get(
    '/api/v1/plans/:deliveryPlanId/timeline',
    operation(VIEW, {
      operationId: 'GetDeliveryPlanTimeline',
      summary: 'Milestones of the plan and its shipments, in time order',
      tags: TAGS,
      params: PlanParams,
      response: SingleResult('core', DeliveryPlanTimelineResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await timeline(database, businessAuthOf(request), request.params.deliveryPlanId)),
  )
  app.post(
    '/api/v1/plans/:deliveryPlanId/shipments',
    operation(MODIFY, {
      operationId: 'AddShipment',
      summary: 'Put a shipment on a Draft or Scheduled plan',
      description:
        'The shipment becomes Assigned and the last stop. A shipment on another plan is a 409 shipment_on_another_plan.',
      tags: TAGS,
      params: PlanParams,
      body: AddShipmentRequest,
      response: BOOLEAN,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await addShipment(
          database,
          businessAuthOf(request),
          request.params.deliveryPlanId,
          request.body.shipmentId,
        ),
      ),
  )
  app.delete(
    '/api/v1/plans/:deliveryPlanId/shipments/:shipmentId',
    operation(MODIFY, {
      operationId: 'RemoveShipmentFromDispatch',
      summary: 'Take a shipment off a Draft or Scheduled plan (it is Pending again)',
      tags: TAGS,
      params: PlanShipmentParams,
      response: BOOLEAN,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await removeShipment(
          database,
          businessAuthOf(request),
          request.params.deliveryPlanId,
          request.params.shipmentId,
        ),
      ),
  )
  app.put(
    '/api/v1/plans/:deliveryPlanId/stops',
    operation(MODIFY, {
      operationId: 'ReorderPlanStops',
      summary: 'Put a Draft or Scheduled plan’s stops in a new order',
      description:
        'shipmentIds names every shipment on the plan once, in the new order (the first is stop 1); one missing, named twice or not on the plan is a 400 naming shipmentIds. ' +
        'Planned arrivals are cleared (they belonged to the old order). A plan past Scheduled is a 409 plan_not_editable.',
      tags: TAGS,
      params: PlanParams,
      body: PlanStopsRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) => {
      const auth = businessAuthOf(request)
      await reorderStops(database, auth, request.params.deliveryPlanId, request.body.shipmentIds)
      return single('core', await getPlan(database, auth, request.params.deliveryPlanId))
    },
  )
  app.post(
    '/api/v1/plans/:dispatchId/autobatch',
    operation(MODIFY, {
      operationId: 'AutoBatchShipments',
      summary: 'Fill the plan with matching unassigned shipments and order its stops on the planning engine',
      description:
        "Takes the unassigned Pending shipments scheduled on the plan's day whose delivery point lies in one of its zones (every active zone if it names none) and orders them with the plan's own stops on the planning engine: " +
        "one vehicle, the plan's (its maxWeight and maxVolume, its shift, else 08:00-18:00 in the business's time zone, its breaks), starting at the plan's depot (else the vehicle's startLocation, else the first pickup address or stop) and ending at the vehicle's endLocation, else its startLocation, else at the last stop; " +
        "each shipment's delivery windows and service time (else the business setting delivery.defaultServiceMinutes) honoured, travel times as plan-day's. As many shipments as fit are served, then the shortest route; the plan's own shipments always stay on it. " +
        'Stores the sequence, each stop’s plannedArrival and plannedDeparture and the distance. Deterministic. Leaves a notification with the assigned and left-out counts. ' +
        "The plan's day is the business's own, in its time zone: a shipment scheduled at 2026-11-24T23:30:00Z is on 25 November in Africa/Johannesburg. " +
        'data is true; messages lists, in code order, one Warning entry per shipment of the day left out, naming it and why: autobatch_no_coordinates (no delivery latitude/longitude), ' +
        "autobatch_outside_zones (its point lies outside the plan's zones, or every active zone), autobatch_over_capacity (it would take the load past the vehicle's maxWeight or maxVolume, with the figures), " +
        "autobatch_outside_windows (none of its delivery windows can be met, even by the vehicle doing nothing else), autobatch_outside_shift (its windows cannot be met within the vehicle's shift beside the other stops), autobatch_unreachable (the road network has no route to it); " +
        'and an Info entry autobatch_stop_not_routed for a shipment already on the plan that cannot be routed (no coordinates, or its windows cannot be met): it comes last, without planned times. ' +
        '409 plan_not_editable for a plan that is not Draft or Scheduled; 409 plan_changed when the plan, its vehicle or the day’s shipments changed while the route was searched (nothing is written; run it again).',
      tags: TAGS,
      params: DispatchParams,
      response: BOOLEAN,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', true, await autobatch(deps, businessAuthOf(request), request.params.dispatchId)),
  )
}
