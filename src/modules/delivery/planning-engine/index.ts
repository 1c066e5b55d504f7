/** The planning engine: pure routing with time windows, and a thread to run it off the event loop. */
export { checkPlan } from './checker.js'
export { solve } from './engine.js'
export { greatCircleKm, greatCircleMatrixOf, type Point } from './great-circle.js'
export { greatCircleInThread, solveInThread, warmPlanningThread } from './thread.js'
export type * from './types.js'
