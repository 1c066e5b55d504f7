import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import { registerPlanDayRoutes } from './plan-day.routes.js'
import { registerPlanStatusRoutes } from './plan-status.routes.js'
import { planEvents } from './plans.events.js'
import { registerPlanRoutes } from './plans.routes.js'

/** Delivery plans (dispatches): codes, stops in order, autobatch, status moves, timeline. */
export const plansModule = defineModule({
  name: 'delivery/plans',
  core: {
    tags: [
      {
        name: 'DeliveryPlans',
        description: 'Delivery plans (dispatches): codes, stops, autobatch, timeline (Shipments)',
      },
    ],
    routes(app, deps) {
      registerPlanRoutes(app, deps)
      registerPlanStatusRoutes(app, deps)
      registerPlanDayRoutes(app, deps)
    },
  },
  schemaNames: returning('DispatchResponse', [
    'GetTrips',
    'SaveDispatch',
    'GetDispatchByShipmentId',
    'GetDispatch',
    'UpdateDispatch',
    'ScheduleDispatch',
    'DispatchPlan',
    'CompleteDispatch',
    'CancelDispatch',
  ]),
  events: planEvents,
})
