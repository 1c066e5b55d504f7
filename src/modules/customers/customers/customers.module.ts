import { defineModule } from '../../../platform/module.js'
import { registerContactRoutes } from './contacts.routes.js'
import { registerCustomerCrudRoutes } from './customers.routes.js'
import { registerMetadataRoutes } from './metadata.routes.js'
import { registerTraceRoutes } from './traces.routes.js'

/** Customers (M3) with contacts, activity traces and metadata. */
export const customersModule = defineModule({
  name: 'customers/customers',
  core: {
    tags: [
      {
        name: 'Customers',
        description: 'Customers with contacts, attachments, activity traces and metadata (Customers)',
      },
    ],
    routes(app, deps) {
      registerCustomerCrudRoutes(app, deps)
      registerContactRoutes(app, deps)
      registerTraceRoutes(app, deps)
      registerMetadataRoutes(app, deps)
    },
  },
  schemaNames: {
    CreateCustomerContact: { body: 'CreateContactCommand', data: 'ContactResponse' },
    UpdateCustomerContact: { body: 'UpdateContactCommand', data: 'ContactResponse' },
    DeleteCustomerContact: { data: 'ContactResponse' },
    GetAllCustomers: { data: 'CustomerResponse' },
    CreateCustomer: { body: 'CreateCustomerRequest', data: 'CustomerResponse' },
    BulkDeleteCustomers: { body: 'CustomerBulkDeleteCommand' },
    GetCustomer: { data: 'CustomerResponse' },
    UpdateCustomer: { body: 'UpdateCustomerRequest', data: 'CustomerResponse' },
    AddCustomerMetadata: { body: 'CustomerMetadataRequest', data: 'CustomerResponse' },
    GetActivityTraces: { data: 'ActivityTrace' },
    AddActivityTrace: { body: 'AddActivityTraceRequest', data: 'CustomerResponse' },
  },
  // The live-customer count is a counter; activity traces (customers/activity) are a history already.
  unauditedTables: ['customer_counts', 'activity_traces'],
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    customers: {
      source: 'customers',
      filter: 'deleted_at IS NULL',
      columns: [
        'id',
        'code',
        'name',
        'email',
        'phone_number',
        'customer_group_id',
        'type',
        'status',
        'date_created',
      ],
    },
  },
})
