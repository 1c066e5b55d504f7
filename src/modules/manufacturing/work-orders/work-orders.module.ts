import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import { workOrderEvents } from './work-orders.events.js'
import { registerWorkOrderRoutes } from './work-orders.routes.js'

/** Work orders (M14): make a product from its BOM; completing posts to the stock ledger. */
export const workOrdersModule = defineModule({
  name: 'manufacturing/work-orders',
  core: {
    tags: [
      {
        name: 'WorkOrders',
        description: 'Work orders: make a product from its BOM, standard vs actual cost (WorkOrders)',
      },
    ],
    routes: registerWorkOrderRoutes,
  },
  schemaNames: returning('WorkOrderResponse', [
    'GetWorkOrders',
    'CreateWorkOrder',
    'GetBomWorkOrders',
    'GetWorkOrder',
    'UpdateWorkOrder',
    'ReleaseWorkOrder',
    'StartWorkOrder',
    'CancelWorkOrder',
    'CompleteWorkOrder',
  ]),
  events: workOrderEvents,
})
