/**
 * What the other modules of the organisation area may use of organisation/business; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { DIMENSION_UNITS, normaliseCurrency, WEIGHT_UNITS } from './reference-data.js'
