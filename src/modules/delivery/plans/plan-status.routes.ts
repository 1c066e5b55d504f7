import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { movePlan } from './plan-status.service.js'
import { DispatchParams, DispatchResponse } from './plans.schemas.js'

const MOVES = [
  { path: 'schedule', to: 'Scheduled', operationId: 'ScheduleDispatch', summary: 'Draft -> Scheduled' },
  {
    path: 'dispatch',
    to: 'Dispatched',
    operationId: 'DispatchPlan',
    summary: 'Scheduled -> Dispatched; its shipments go InTransit',
  },
  {
    path: 'complete',
    to: 'Completed',
    operationId: 'CompleteDispatch',
    summary: 'Dispatched -> Completed, once every shipment is Delivered, Failed or Returned',
  },
  {
    path: 'cancel',
    to: 'Cancelled',
    operationId: 'CancelDispatch',
    summary: 'Draft or Scheduled -> Cancelled; its shipments go back to unassigned',
  },
] as const

export function registerPlanStatusRoutes(app: HttpApp, deps: AppDeps) {
  for (const move of MOVES) {
    app.post(
      `/api/v1/plans/:dispatchId/${move.path}`,
      operation(['Shipments', 'Modify'], {
        operationId: move.operationId,
        summary: move.summary,
        description:
          'Stamps the move. Any other move is a 409 invalid_status_transition; completing with open shipments is a 409 plan_has_open_shipments.',
        tags: ['DeliveryPlans'],
        params: DispatchParams,
        response: SingleResult('core', DispatchResponse),
        errors: [400, 404, 409],
      }),
      async (request) =>
        single('core', await movePlan(deps, businessAuthOf(request), request.params.dispatchId, move.to)),
    )
  }
}
