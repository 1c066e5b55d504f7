import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import { registerBomLineRoutes } from './bom-lines.routes.js'
import { registerBomRoutes } from './boms.routes.js'

/** Bills of materials: revisions, lines, activation and multi-level cost as of a date. */
export const bomsModule = defineModule({
  name: 'manufacturing/boms',
  core: {
    tags: [
      {
        name: 'Boms',
        description: 'Bills of materials: revisions, activation, multi-level cost as of a date (Products)',
      },
    ],
    routes(app, deps) {
      registerBomRoutes(app, deps)
      registerBomLineRoutes(app, deps)
    },
  },
  schemaNames: returning('BomResponse', [
    'GetBoms',
    'CreateBom',
    'GetBom',
    'UpdateBom',
    'ActivateBom',
    'ReviseBom',
    'AddBomLineItem',
    'UpdateBomLineItem',
    'DeleteBomLineItem',
  ]),
})
