import type { Config } from '../config.js'
import type { Database } from '../db/database.js'
import type { Services } from './services.js'

/** What every module's routes may use; built once in main (or by the test harness). */
export interface AppDeps {
  config: Config
  database: Database
  services: Services
}
