import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import { registerPlanDayRoutes } from './plan-day.routes.js'
import { registerPlanStatusRoutes } from './plan-status.routes.js'
import { planEvents } from './plans.events.js'
import { registerPlanRoutes } from './plans.routes.js'
import { registerReoptimiseRoutes } from './reoptimise.routes.js'

/** Delivery plans (dispatches): codes, stops in order, autobatch, plan-day, re-optimising, status moves, timeline. */
export const plansModule = defineModule({
  name: 'delivery/plans',
  core: {
    tags: [
      {
        name: 'DeliveryPlans',
        description:
          'Delivery plans (dispatches): codes, stops, autobatch, planning a day, re-optimising, timeline (Shipments)',
      },
    ],
    routes(app, deps) {
      registerPlanRoutes(app, deps)
      registerPlanStatusRoutes(app, deps)
      registerPlanDayRoutes(app, deps)
      registerReoptimiseRoutes(app, deps)
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
    'ReoptimiseDeliveryPlan',
  ]),
  events: planEvents,
})
