import { defineModule } from '../../../platform/module.js'
import { registerCustomerConfigurationRoutes } from './customer-configurations.routes.js'

/**
 * Per-customer settings: free-form keys, or overrides of the business settings' registry (then
 * typed). Served under the Settings tag and permission.
 */
export const customerConfigurationsModule = defineModule({
  name: 'customers/customer-configurations',
  core: { routes: registerCustomerConfigurationRoutes },
  schemaNames: {
    GetAllBusinessCustomerAppConfigurations: { data: 'BusinessCustomerAppConfigurationResponse' },
    SaveBusinessCustomerAppConfiguration: { body: 'SaveCustomerAppConfigurationCommand' },
  },
})
