import { describe, expect, it } from 'vitest'
import { greatCircleKm, routeKm } from './routing.js'

describe('great-circle distance', () => {
  it('measures great-circle distance', () => {
    // Cape Town to Johannesburg, about 1,260 km as the crow flies.
    const km = greatCircleKm({ latitude: -33.92, longitude: 18.42 }, { latitude: -26.2, longitude: 28.05 })
    expect(km).toBeGreaterThan(1250)
    expect(km).toBeLessThan(1275)
  })

  it('measures an open route from the depot in the order given', () => {
    const stops = [3, 1, 2].map((x) => ({ latitude: 0, longitude: x }))
    const degree = greatCircleKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 1 })
    expect(routeKm({ latitude: 0, longitude: 0 }, stops, [1, 2, 0])).toBeCloseTo(3 * degree, 6)
    expect(routeKm({ latitude: 0, longitude: 0 }, stops, [0, 1, 2])).toBeCloseTo(6 * degree, 6)
  })
})
