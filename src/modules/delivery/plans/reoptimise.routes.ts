import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { DispatchResponse, PlanParams } from './plans.schemas.js'
import { reoptimise } from './reoptimise.service.js'

/** Re-optimising a plan: its open stops re-ordered on the planning engine, the visited ones kept in place. */
export function registerReoptimiseRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/v1/plans/:deliveryPlanId/reoptimise',
    operation(['Shipments', 'Modify'], {
      operationId: 'ReoptimiseDeliveryPlan',
      summary: 'Re-order a plan’s open stops on the planning engine, keeping visited stops in place',
      description:
        'For a Draft, Scheduled or Dispatched plan. Stops already delivered, failed, returned or arrived at (a driver’s stop/arrived report), and cancelled ones, ' +
        'keep their order at the head of the plan, with their times. The open stops are re-ordered after them on the planning engine: from the last visited stop’s ' +
        'delivery point (none visited: the plan’s depot, else the vehicle’s startLocation), leaving no earlier than the vehicle was free to leave it (its delivered or failed ' +
        'report, or its arrival and service time) and, on a Dispatched plan, no earlier than now; within the vehicle’s shift (else 08:00-18:00) and breaks, and each stop’s ' +
        'delivery windows and service time; ending at the vehicle’s endLocation, else its startLocation, else at the last stop. The weight and volume are not limits: ' +
        'the stops are on the vehicle already. The result does not depend on the open stops’ current order: re-optimising again gives the same plan. ' +
        'Stores each open stop’s stopSequence, plannedArrival and plannedDeparture (the tracking page shows the new arrival) and the distance, and publishes ' +
        'PlanReoptimised (notification "Delivery plan re-optimised", webhook delivery_plan.reoptimised with each open stop’s new planned arrival). Answers the plan; ' +
        'messages has one Warning reoptimise_stop_not_routed per open stop no route reaches in time (no coordinates, its windows, the shift): it comes last, without times. ' +
        '409 plan_not_reoptimisable for a Completed or Cancelled plan; 409 plan_changed, nothing written, when the plan, its vehicle or a stop changed while the route was ' +
        'searched (a second re-optimisation of the same plan at the same time included): re-optimise again.',
      tags: ['DeliveryPlans'],
      params: PlanParams,
      response: SingleResult('core', DispatchResponse),
      errors: [400, 404, 409],
    }),
    async (request) => {
      const { plan, messages } = await reoptimise(
        deps,
        businessAuthOf(request),
        request.params.deliveryPlanId,
      )
      return single('core', plan, messages)
    },
  )
}
