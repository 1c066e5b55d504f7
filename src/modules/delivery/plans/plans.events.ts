import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'
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

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    PlanDispatched: Static<typeof PlanEventPayload>
    PlanCompleted: Static<typeof PlanEventPayload>
    AutobatchCompleted: Static<typeof AutobatchCompletedPayload>
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
})
