import { describe, expect, it } from 'vitest'
import { greatCircleKm, orderStops, type Point, routeKm } from './routing.js'

describe('stop ordering', () => {
  it('measures great-circle distance', () => {
    // Cape Town to Johannesburg, about 1,260 km as the crow flies.
    const km = greatCircleKm({ latitude: -33.92, longitude: 18.42 }, { latitude: -26.2, longitude: 28.05 })
    expect(km).toBeGreaterThan(1250)
    expect(km).toBeLessThan(1275)
  })

  it('is never longer than the given order, and the same every time', () => {
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const depot = { latitude: 0, longitude: 0 }
    const stops: Point[] = Array.from({ length: 60 }, () => ({
      latitude: random() * 2,
      longitude: random() * 2,
    }))
    const order = orderStops(depot, stops)
    expect([...order].sort((a, b) => a - b)).toEqual(stops.map((_, i) => i))
    expect(routeKm(depot, stops, order)).toBeLessThanOrEqual(
      routeKm(
        depot,
        stops,
        stops.map((_, i) => i),
      ),
    )
    expect(orderStops(depot, stops)).toEqual(order)
  })

  it('visits points on a line in order', () => {
    const stops = [3, 1, 4, 2].map((x) => ({ latitude: 0, longitude: x }))
    expect(orderStops({ latitude: 0, longitude: 0 }, stops)).toEqual([1, 3, 0, 2])
  })
})
