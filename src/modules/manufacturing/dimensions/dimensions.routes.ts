import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  DimensionPresetRequest,
  DimensionPresetResponse,
  GeometryFieldSymbol,
  PresetParams,
} from './dimensions.schemas.js'
import {
  createPreset,
  defaultDimensions,
  defaultPreset,
  deletePreset,
  listPresets,
  listTemplates,
  updatePreset,
} from './dimensions.service.js'

const TAGS = ['Dimensions']
const ONE = SingleResult('core', DimensionPresetResponse)
const LIST = Type.Array(DimensionPresetResponse)
/** Package sizes come under the Products permission. */
const VIEW = ['Products', 'View'] as const
const MODIFY = ['Products', 'Modify'] as const

/** Package sizes (M4): the business's dimension presets and carrier templates. */
export function registerDimensionRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/dimensions/presets',
    operation(VIEW, {
      operationId: 'GetPackageSizes',
      summary: "The business's package sizes (bare array)",
      description: 'The default first, then by name.',
      tags: TAGS,
      response: LIST,
      errors: [],
    }),
    async (request) => listPresets(database, businessAuthOf(request)),
  )

  app.post(
    '/api/dimensions/presets',
    operation(MODIFY, {
      operationId: 'CreateDimensionPreset',
      summary: 'Create a package size',
      description:
        'Positive dimensions only. Exactly one preset of a business is its default: the first one, or the one last created or updated with isDefault true.',
      tags: TAGS,
      body: DimensionPresetRequest,
      response: ONE,
      errors: [400],
    }),
    async (request) => single('core', await createPreset(database, businessAuthOf(request), request.body)),
  )

  app.put(
    '/api/dimensions/presets/:presetId',
    operation(MODIFY, {
      operationId: 'UpdateDimensionPreset',
      summary: 'Replace a package size',
      description:
        'isDefault false on the default preset is a 409 default_preset_required: make another preset the default instead.',
      tags: TAGS,
      params: PresetParams,
      body: DimensionPresetRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updatePreset(database, businessAuthOf(request), request.params.presetId, request.body),
      ),
  )

  app.delete(
    '/api/dimensions/presets/:presetId',
    operation(['Products', 'Delete'], {
      operationId: 'DeletePackageSize',
      summary: 'Delete a package size',
      description: 'When it was the default, the oldest remaining preset becomes the default.',
      tags: TAGS,
      params: PresetParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await deletePreset(database, businessAuthOf(request), request.params.presetId)),
  )

  app.get(
    '/api/dimensions/templates',
    operation(VIEW, {
      operationId: 'GetPackageSizeTemplates',
      summary: 'Published parcel sizes of major carriers and postal services (bare array)',
      description:
        'ZA, US, GB, DE and AU; no business ids. Copy one into a preset with POST /api/dimensions/presets.',
      tags: TAGS,
      response: LIST,
      errors: [],
    }),
    async () => listTemplates(),
  )

  app.get(
    '/api/dimensions/get-default-dimensions',
    operation(VIEW, {
      operationId: 'GetDefaultDimensions',
      summary: "The business's length and weight units and their symbols",
      description:
        'From the settings packages.defaultDimensionUnit / packages.defaultWeightUnit when changed from cm / kg, else from the business country (in and lb in the US, Liberia and Myanmar).',
      tags: TAGS,
      response: SingleResult('core', GeometryFieldSymbol),
      errors: [],
    }),
    async (request) => single('core', await defaultDimensions(database, businessAuthOf(request))),
  )

  app.get(
    '/api/dimensions/get-default-preset',
    operation(VIEW, {
      operationId: 'GetDefaultPackageSize',
      summary: "The business's default package size",
      description: '404 no_default_preset while the business has no presets.',
      tags: TAGS,
      response: ONE,
      errors: [404],
    }),
    async (request) => single('core', await defaultPreset(database, businessAuthOf(request))),
  )
}
