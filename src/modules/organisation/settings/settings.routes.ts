import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { registryTable } from './settings.registry.js'
import {
  AppConfigurationResponse,
  ModuleParams,
  SaveBusinessSettingsBody,
  SettingsQuery,
} from './settings.schemas.js'
import { listBusinessSettings, saveBusinessSettings, settingsForModule } from './settings.service.js'

const TAGS = ['Settings']
const REGISTRY = `Known settings (any other key is kept as text):\n\n${registryTable()}`

/** Business and customer settings (Settings, M10). */
export function registerSettingsRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/settings/business',
    operation(['Settings', 'View'], {
      operationId: 'GetAllBusinessConfigurations',
      summary: 'The business’s settings: every known setting (stored or default) and every other stored key',
      description: `One page holding every item, ordered by key. \`keys\` (comma-separated, case-sensitive) narrows it. ${REGISTRY}`,
      tags: TAGS,
      querystring: SettingsQuery,
      response: PagedResult('core', AppConfigurationResponse),
      errors: [400],
    }),
    async (request) => listBusinessSettings(database, businessAuthOf(request), request.query.keys),
  )

  app.patch(
    '/api/settings/business',
    operation(['Settings', 'Modify'], {
      operationId: 'SaveBusinessAppConfiguration',
      summary: 'Set several settings at once; null puts a setting back to its default',
      description:
        'All or nothing: if any key or value is invalid (one reason per key, the field being the key) nothing is saved. ' +
        `A known key's value must fit its type (booleans 'true'/'false', currencies ISO 4217, enums one of their values; letter case is normalised). ${REGISTRY}`,
      tags: TAGS,
      body: SaveBusinessSettingsBody,
      response: SingleResult('core', Type.Boolean()),
      errors: [400],
    }),
    async (request) =>
      single('core', await saveBusinessSettings(database, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/settings/:module',
    operation(['Settings', 'View'], {
      operationId: 'GetBusinessConfigurationsByModule',
      summary: 'The known settings a module reads, with their current values',
      description:
        'A bare array. `module` is a PermissionModule name (any letter case) or its number (1 = Orders).',
      tags: TAGS,
      params: ModuleParams,
      response: Type.Array(AppConfigurationResponse),
      errors: [400],
    }),
    async (request) => settingsForModule(database, businessAuthOf(request), request.params.module),
  )
}
