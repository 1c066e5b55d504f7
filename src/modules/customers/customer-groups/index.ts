/**
 * What the other modules of the customers area may use of customers/customer-groups; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { lockGroup } from './customer-groups.repository.js'
