import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const PlanEventPayload = Type.Object(
  { deliveryPlanId: Uuid(), code: Type.String() },
  { title: 'PlanEventPayload' },
)

export const AutobatchCompletedPayload = Type.Object(
  {
    deliveryPlanId: Uuid(),
    code: Type.String(),
    assigned: Type.Integer({ description: 'Shipments assigned to the plan' }),
    leftOut: Type.Object(
      {
        noLocation: Type.Integer({ description: 'Left out: no coordinates' }),
        noZone: Type.Integer({ description: "Left out: outside the plan's zones" }),
        overCapacity: Type.Integer({ description: "Left out: over the vehicle's capacity" }),
        outsideWindows: Type.Integer({ description: 'Left out: none of its delivery windows can be met' }),
        outsideShift: Type.Integer({
          description: "Left out: its windows cannot be met within the vehicle's shift",
        }),
        unreachable: Type.Integer({ description: 'Left out: the road network has no route to it' }),
      },
      { title: 'AutobatchLeftOut' },
    ),
  },
  { title: 'AutobatchCompletedPayload' },
)

export const PlanReoptimisedPayload = Type.Object(
  {
    deliveryPlanId: Uuid(),
    code: Type.String(),
    kept: Type.Integer({
      description:
        'Stops kept in place: delivered, failed or arrived at, and any other closed stop before them',
    }),
    stops: Type.Array(
      Type.Object(
        {
          shipmentId: Uuid(),
          code: Type.String(),
          stopSequence: Type.Integer(),
          plannedArrival: Nullable(
            DateTime({ description: 'the new planned arrival; null when no route reaches it in time' }),
          ),
        },
        { title: 'ReoptimisedStop' },
      ),
      { description: 'The open stops in their new order, each with its new planned arrival' },
    ),
  },
  { title: 'PlanReoptimisedPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    PlanDispatched: Static<typeof PlanEventPayload>
    PlanCompleted: Static<typeof PlanEventPayload>
    AutobatchCompleted: Static<typeof AutobatchCompletedPayload>
    PlanReoptimised: Static<typeof PlanReoptimisedPayload>
  }
}

const planLink = (id: string) => `/api/v1/plans/${id}`

export const planEvents = defineEvents({
  PlanDispatched: {
    payload: PlanEventPayload,
    description: 'A delivery plan was dispatched.',
    notification: {
      content: ({ payload }) => ({
        title: 'Delivery plan dispatched',
        message: `Delivery plan ${payload.code} is on its way.`,
        level: 'Info',
        priority: 'Medium',
        entityType: 'None',
        entityId: payload.deliveryPlanId,
        actionLink: planLink(payload.deliveryPlanId),
      }),
    },
    webhook: {
      type: 'delivery_plan.dispatched',
      description: 'A delivery plan was dispatched (its shipments are in transit).',
      resourceField: 'deliveryPlanId',
    },
  },
  PlanCompleted: {
    payload: PlanEventPayload,
    description: 'A delivery plan was completed.',
    notification: {
      content: ({ payload }) => ({
        title: 'Delivery plan completed',
        message: `Delivery plan ${payload.code} is complete.`,
        level: 'Success',
        priority: 'Medium',
        entityType: 'None',
        entityId: payload.deliveryPlanId,
        actionLink: planLink(payload.deliveryPlanId),
      }),
    },
  },
  AutobatchCompleted: {
    payload: AutobatchCompletedPayload,
    description: 'Autobatch assigned shipments to a delivery plan.',
    notification: {
      content: ({ payload: p }) => {
        const left = p.leftOut
        const timing = left.outsideWindows + left.outsideShift + left.unreachable
        const leftOut = left.noZone + left.overCapacity + left.noLocation + timing
        return {
          title: 'Autobatch finished',
          message:
            `Delivery plan ${p.code}: ${p.assigned} shipment(s) assigned, ${leftOut} left out` +
            (leftOut > 0
              ? ` (${left.noZone} outside the plan's zones, ${left.overCapacity} over the vehicle's capacity, ${left.noLocation} without coordinates` +
                (timing > 0
                  ? `, ${left.outsideWindows + left.outsideShift} outside their delivery windows or the shift, ${left.unreachable} unreachable).`
                  : ').')
              : '.'),
          level: leftOut > 0 ? 'Recommendation' : 'Success',
          priority: 'Medium',
          entityType: 'None',
          entityId: p.deliveryPlanId,
          actionLink: planLink(p.deliveryPlanId),
        }
      },
    },
  },
  PlanReoptimised: {
    payload: PlanReoptimisedPayload,
    description: 'A delivery plan’s open stops were re-ordered, each with a new planned arrival.',
    notification: {
      content: ({ payload: p }) => {
        const late = p.stops.filter((s) => s.plannedArrival === null).length
        return {
          title: 'Delivery plan re-optimised',
          message:
            `Plan ${p.code} re-optimised: ${p.stops.length} open stop(s) re-ordered` +
            (p.kept > 0 ? `, ${p.kept} kept in place` : '') +
            (late > 0 ? `, ${late} without a planned arrival (no route reaches them in time).` : '.'),
          level: late > 0 ? 'Recommendation' : 'Info',
          priority: 'Medium',
          entityType: 'None',
          entityId: p.deliveryPlanId,
          actionLink: planLink(p.deliveryPlanId),
        }
      },
    },
    webhook: {
      type: 'delivery_plan.reoptimised',
      description:
        'A delivery plan’s open stops were re-ordered: each carries its new planned arrival, to tell its customer.',
      resourceField: 'deliveryPlanId',
    },
  },
})
