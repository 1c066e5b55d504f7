/**
 * What the other modules of the manufacturing area may use of manufacturing/products; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { productNotFound } from './products.errors.js'
export { findProduct, lockProduct, lockProducts, type ProductRow } from './products.repository.js'
export {
  type DimensionUnit,
  DimensionUnitType,
  ProductParams,
  type WeightUnit,
  WeightUnitType,
} from './products.schemas.js'
