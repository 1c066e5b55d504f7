import { type Static, Type } from '@sinclair/typebox'
import { AddressInput, AddressOutput } from '../../../http/address.js'
import { BUSINESS_DATE_RULE } from '../../../http/business-dates.js'
import { EnumType } from '../../../http/enums.js'
import { INT32_MAX, ListQuery } from '../../../http/list-params.js'
import { DateOrDateTime, DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { ShipmentResponse } from '../shipments/index.js'

export const PLAN_STATUSES = ['Draft', 'Scheduled', 'Dispatched', 'Completed', 'Cancelled'] as const
export type PlanStatus = (typeof PLAN_STATUSES)[number]
export const PlanStatusType = EnumType(PLAN_STATUSES, {
  description: 'Draft -> Scheduled -> Dispatched -> Completed; Draft or Scheduled -> Cancelled.',
})

/** How a plan's day is read, said once for the schemas and the route descriptions. */
export const PLAN_DAY_RULE =
  "a date yyyy-mm-dd, or a date-time (as shipments take it) read as its instant's calendar day in the business's time zone " +
  '(its timezone setting; a date-time without an offset is UTC): 2026-11-24T23:30:00Z is 2026-11-25 in Africa/Johannesburg'

const planFields = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  scheduledDate: DateOrDateTime({
    description: `the delivery day: ${PLAN_DAY_RULE}; answered as yyyy-mm-dd; ${BUSINESS_DATE_RULE}`,
  }),
  vehicleId: Type.Optional(
    Nullable(Uuid({ description: 'a vehicle of this business; its capacity bounds autobatch' })),
  ),
  driverName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  carrierId: Type.Optional(
    Nullable(Type.Integer({ description: 'a carrier catalogue id (GET /api/carriers)' })),
  ),
  deliveryZoneIds: Type.Optional(
    Type.Array(Uuid(), {
      maxItems: 100,
      description: 'zones autobatch draws from; none = every active zone',
    }),
  ),
  depot: Type.Optional(Nullable(AddressInput)),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
}

export const DispatchRequest = Type.Object({
  code: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 60,
      description:
        'a code reserved with GET /api/v1/plans/code; saving again with the same code returns the same plan. Omitted = a new code is reserved.',
    }),
  ),
  ...planFields,
  shipmentIds: Type.Optional(
    Type.Array(Uuid(), { maxItems: 1000, description: 'shipments to put on the plan' }),
  ),
})
export type DispatchRequest = Static<typeof DispatchRequest>

export const DispatchUpdateRequest = Type.Object(planFields, {
  description: 'Replaces the editable fields of a Draft or Scheduled plan.',
})
export type DispatchUpdateRequest = Static<typeof DispatchUpdateRequest>

export const DispatchParams = Type.Object({ dispatchId: Uuid() })
export const PlanParams = Type.Object({ deliveryPlanId: Uuid() })
export const PlanShipmentParams = Type.Object({ deliveryPlanId: Uuid(), shipmentId: Uuid() })
export const ShipmentIdParams = Type.Object({ shipmentId: Uuid() })
export const AddShipmentRequest = Type.Object({ shipmentId: Uuid() })
export const PlanStopsRequest = Type.Object({
  shipmentIds: Type.Array(Uuid(), {
    minItems: 1,
    maxItems: 1000,
    description: 'every shipment on the plan, each once, in the new stop order (the first is stop 1)',
  }),
})

/** Plans per page when neither perPage nor PageSize is given (the contract's default). */
export const DEFAULT_PLANS_PER_PAGE = 50

/**
 * GetTrips takes the contract's page, perPage, from, to and status, and the standard list
 * parameters as well: Page is page (names match regardless of letter case), PageSize is perPage.
 */
export const PlansQuery = Type.Object({
  page: Type.Integer({
    minimum: 1,
    maximum: INT32_MAX,
    default: 1,
    description:
      'page number, first page is 1; Page is the same parameter (names match regardless of letter case)',
  }),
  perPage: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description: `plans per page, 1 to 100; default ${DEFAULT_PLANS_PER_PAGE}; PageSize is the same setting`,
    }),
  ),
  PageSize: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description: 'the standard list name of perPage; both with different values is a 400 naming both',
    }),
  ),
  from: Type.Optional(DateOrDateTime({ description: `first scheduled day, inclusive: ${PLAN_DAY_RULE}` })),
  to: Type.Optional(DateOrDateTime({ description: `last scheduled day, inclusive: ${PLAN_DAY_RULE}` })),
  status: Type.Optional(Type.String({ description: 'a plan status, any letter case, or its number' })),
  $orderby: ListQuery.properties.$orderby,
  $filter: ListQuery.properties.$filter,
  $search: ListQuery.properties.$search,
})
export type PlansQuery = Static<typeof PlansQuery>

export const DispatchResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  code: Type.String({ description: '<prefix>-<yyyymmdd>-<sequence>' }),
  name: Nullable(Type.String()),
  status: PlanStatusType,
  scheduledDate: Type.String({ format: 'date' }),
  vehicleId: Nullable(Uuid()),
  driverName: Nullable(Type.String()),
  carrierId: Nullable(Type.Integer()),
  deliveryZoneIds: Type.Array(Uuid()),
  depot: Nullable(AddressOutput),
  notes: Nullable(Type.String()),
  shipments: Type.Array(ShipmentResponse, { description: 'in stop order' }),
  totals: Type.Object({
    shipmentCount: Type.Integer(),
    weight: Type.Number(),
    volume: Type.Number(),
    distanceKm: Nullable(
      Type.Number({
        description:
          'the route of the last autobatch, plan-day or re-optimisation, from the depot along the stop order (and to the vehicle’s end location when it has one): great-circle, or the road network’s',
      }),
    ),
  }),
  scheduledAt: Nullable(DateTime()),
  dispatchedAt: Nullable(DateTime()),
  completedAt: Nullable(DateTime()),
  cancelledAt: Nullable(DateTime()),
  autobatchedAt: Nullable(DateTime()),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type DispatchResponse = Static<typeof DispatchResponse>

export const DispatchCodeResponse = Type.Object({ code: Type.String() })

export const DispatchOverviewResponse = Type.Object({
  countsByStatus: Type.Record(Type.String(), Type.Integer(), {
    description: 'every plan status with its count',
  }),
  todaysPlans: Type.Array(
    Type.Object({
      id: Uuid(),
      code: Type.String(),
      name: Nullable(Type.String()),
      status: PlanStatusType,
      shipmentCount: Type.Integer(),
    }),
  ),
  unassignedShipments: Type.Integer({ description: 'Pending or Assigned shipments on no plan' }),
})
export type DispatchOverviewResponse = Static<typeof DispatchOverviewResponse>

export const TimelineEntry = Type.Object({
  at: DateTime(),
  subject: Type.String({ description: 'Plan or Shipment' }),
  id: Uuid(),
  code: Type.String(),
  milestone: Type.String({
    description:
      'Plan: Created, Scheduled, Autobatched, Dispatched, Completed, Cancelled. Shipment: Assigned, InTransit, Arrived, Delivered, Failed, Returned; and Replanned (as of the completion) for a failed delivery that went back to Pending off the plan, which keeps its Arrived and Failed from its stop records',
  }),
  note: Nullable(Type.String({ description: 'the reason of a Failed milestone' })),
})
export const DeliveryPlanTimelineResponse = Type.Object({
  deliveryPlanId: Uuid(),
  code: Type.String(),
  entries: Type.Array(TimelineEntry, { description: 'in time order' }),
})
export type DeliveryPlanTimelineResponse = Static<typeof DeliveryPlanTimelineResponse>
