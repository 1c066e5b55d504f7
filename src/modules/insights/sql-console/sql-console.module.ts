import { defineModule } from '../../../platform/module.js'
import * as hideCatalogueFromConsole from './migrations/20261202090000-hide-catalogue-from-console.js'
import * as dropConsoleNamesTellingTheSchema from './migrations/20261202090100-drop-console-names-telling-the-schema.js'
import * as consoleMeasuresValues from './migrations/20261202090200-console-measures-values.js'
import { registerSqlConsoleRoutes } from './sql-console.routes.js'

/** Ad-hoc read-only SQL over console views of the business tables. */
export const sqlConsoleModule = defineModule({
  name: 'insights/sql-console',
  core: {
    tags: [{ name: 'SqlConsole', description: 'Ad-hoc read-only SQL over the business tables (Insights)' }],
    routes: registerSqlConsoleRoutes,
  },
  migrations: {
    global: [
      { name: '20261202090000-hide-catalogue-from-console', sql: hideCatalogueFromConsole.sql },
      {
        name: '20261202090100-drop-console-names-telling-the-schema',
        sql: dropConsoleNamesTellingTheSchema.sql,
      },
      { name: '20261202090200-console-measures-values', sql: consoleMeasuresValues.sql },
    ],
  },
})
