import { defineModule } from '../../../platform/module.js'
import { registerSettingsRoutes } from './settings.routes.js'

/** Business settings (Settings); per-customer settings are customers/customer-configurations. */
export const settingsModule = defineModule({
  name: 'organisation/settings',
  core: {
    tags: [{ name: 'Settings', description: 'Business settings and per-customer settings (Settings)' }],
    routes: registerSettingsRoutes,
  },
  schemaNames: {
    GetAllBusinessConfigurations: { data: 'AppConfigurationResponse' },
    SaveBusinessAppConfiguration: { body: 'SaveBusinessAppConfigurationCommand' },
    GetBusinessConfigurationsByModule: { data: 'BusinessAppConfigurationResponse' },
  },
})
