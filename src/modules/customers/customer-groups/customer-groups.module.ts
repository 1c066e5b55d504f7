import { defineModule } from '../../../platform/module.js'
import { registerCustomerGroupRoutes } from './customer-groups.routes.js'

/** Groups that customers belong to (Customers). */
export const customerGroupsModule = defineModule({
  name: 'customers/customer-groups',
  core: {
    tags: [{ name: 'CustomerGroups', description: 'Groups that customers belong to (Customers)' }],
    routes: registerCustomerGroupRoutes,
  },
  schemaNames: {
    GetAllCustomerGroups: { data: 'CustomerGroupResponse' },
    CreateCustomerGroup: { body: 'CreateCustomerGroupCommand', data: 'CustomerGroupResponse' },
    GetCustomerGroup: { data: 'CustomerGroupResponse' },
    UpdateCustomerGroup: { body: 'UpdateCustomerGroupCommand', data: 'CustomerGroupResponse' },
  },
})
