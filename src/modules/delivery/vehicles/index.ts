/**
 * What the other modules of the delivery area may use of delivery/vehicles; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */

export { minutesOf, storedBreaks, storedLocation } from './vehicle-shifts.js'
export { vehicleCapacity, vehicleExists } from './vehicles.repository.js'
