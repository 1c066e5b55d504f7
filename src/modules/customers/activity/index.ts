/**
 * What the other modules of the customers area may use of customers/activity; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { addTrace, addTraces, type SystemTraceType } from './traces.js'
