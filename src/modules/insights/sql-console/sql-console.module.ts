import { defineModule } from '../../../platform/module.js'
import { registerSqlConsoleRoutes } from './sql-console.routes.js'

/** Ad-hoc read-only SQL over console views of the business tables. */
export const sqlConsoleModule = defineModule({
  name: 'insights/sql-console',
  core: {
    tags: [{ name: 'SqlConsole', description: 'Ad-hoc read-only SQL over the business tables (Insights)' }],
    routes: registerSqlConsoleRoutes,
  },
})
