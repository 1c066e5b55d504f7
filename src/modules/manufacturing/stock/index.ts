/**
 * What the other modules of the manufacturing area may use of manufacturing/stock; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { availableAt, averageCostAt } from './ledger.repository.js'
export { allowsNegative, postingScopeOf, postMovement } from './ledger.service.js'
export { effectiveDateOf } from './stock-movement.rules.js'
