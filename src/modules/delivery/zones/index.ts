/**
 * What the other modules of the delivery area may use of delivery/zones; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { containsPoint, polygonsOf, type ZoneGeometry } from './geometry.js'
export { warmZoneThread } from './shape-thread.js'
export { prepareZones } from './zone-locator.js'
export { activeZones, existingZoneIds } from './zones.repository.js'
