import { defineModule } from '../../../platform/module.js'
import { registerCustomerConfigurationRoutes } from './customer-configurations.routes.js'
import { registerSettingsRoutes } from './settings.routes.js'

/** Business settings and per-customer settings (Settings). */
export const settingsModule = defineModule({
  name: 'organisation/settings',
  core: {
    tags: [{ name: 'Settings', description: 'Business settings and per-customer settings (Settings)' }],
    routes(app, deps) {
      registerSettingsRoutes(app, deps)
      registerCustomerConfigurationRoutes(app, deps)
    },
  },
  schemaNames: {
    GetAllBusinessCustomerAppConfigurations: { data: 'BusinessCustomerAppConfigurationResponse' },
    SaveBusinessCustomerAppConfiguration: { body: 'SaveCustomerAppConfigurationCommand' },
    GetAllBusinessConfigurations: { data: 'AppConfigurationResponse' },
    SaveBusinessAppConfiguration: { body: 'SaveBusinessAppConfigurationCommand' },
    GetBusinessConfigurationsByModule: { data: 'BusinessAppConfigurationResponse' },
  },
})
