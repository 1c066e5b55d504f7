import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import { registerDimensionRoutes } from './dimensions.routes.js'

/** Package sizes: presets of the business and carrier templates. */
export const dimensionsModule = defineModule({
  name: 'manufacturing/dimensions',
  core: {
    tags: [
      {
        name: 'Dimensions',
        description: 'Package sizes: presets of the business and carrier templates (Products)',
      },
    ],
    routes: registerDimensionRoutes,
  },
  schemaNames: returning('DimensionPresetResponse', [
    'GetPackageSizes',
    'CreateDimensionPreset',
    'UpdateDimensionPreset',
    'GetPackageSizeTemplates',
    'GetDefaultPackageSize',
  ]),
})
