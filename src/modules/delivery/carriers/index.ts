/**
 * What the other modules of the delivery area may use of delivery/carriers; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { carrierById } from './catalogue.js'
