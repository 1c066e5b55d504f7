import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { PlanDayRequest, PlanDayResponse } from './plan-day.schemas.js'
import { planDay } from './plan-day.service.js'

/** Planning a business's day across its vehicles (the planning engine). */
export function registerPlanDayRoutes(app: HttpApp, deps: AppDeps) {
  app.post(
    '/api/v1/plans/plan-day',
    operation(['Shipments', 'Modify'], {
      operationId: 'PlanDay',
      summary: 'Plan a day’s open shipments across the vehicles',
      description:
        'The Pending, unassigned shipments of the date are planned across the chosen (or all active) vehicles ' +
        'within their weight and volume, each vehicle’s shift, start and end locations and breaks (else the ' +
        'request’s shift and depot), and each shipment’s delivery windows and service time; each vehicle used ' +
        'gets its open plan of the day (or a new Draft) with the stops in order and their planned arrival and ' +
        'departure, stored on the stops. What could not be placed is listed with why. 409 plan_day_changed when ' +
        'what the plan was made from changed during the search (nothing is written).',
      tags: ['DeliveryPlans'],
      body: PlanDayRequest,
      response: SingleResult('core', PlanDayResponse),
      errors: [400, 409],
    }),
    async (request) => single('core', await planDay(deps, businessAuthOf(request), request.body)),
  )
}
