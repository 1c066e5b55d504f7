/**
 * What the other modules of the manufacturing area may use of manufacturing/boms; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { costBom } from './bom-cost.service.js'
export { bomNotFound } from './boms.errors.js'
export { BomParams } from './boms.schemas.js'
