import { describe, expect, it } from 'vitest'
import { type DayInput, dayProblem } from './plan-day.problem.js'

const DEPOT = { latitude: -33.92, longitude: 18.42 }
const HOME = { latitude: -33.95, longitude: 18.47 }

type Vehicle = DayInput['vehicles'][number]
type Stop = DayInput['stops'][number]

const vehicle = (id: string, own: Partial<Vehicle> = {}): Vehicle => ({
  id,
  registration: id,
  max_weight: '100',
  max_volume: null,
  shift_start: null,
  shift_end: null,
  start_location: null,
  end_location: null,
  breaks: [],
  ...own,
})

const stop = (id: string, own: Partial<Stop['row']> = {}): Stop => ({
  row: {
    id,
    code: id,
    weight: '10',
    volume: null,
    delivery_address: null,
    pickup_address: null,
    delivery_windows: [],
    service_minutes: null,
    ...own,
  },
  point: { latitude: -33.9, longitude: 18.5 },
})

const input = (over: Partial<DayInput>): DayInput => ({
  date: '2026-12-01',
  timeZone: 'Africa/Johannesburg',
  vehicles: [],
  stops: [],
  keptIds: [],
  depot: DEPOT,
  shift: { start: '08:00', end: '18:00' },
  serviceMinutes: 5,
  ...over,
})

describe('a day’s planning problem', () => {
  it('reads times from the business’s midnight and falls back to the request for what a record does not say', () => {
    const { problem, points, origin, startOf } = dayProblem(
      input({
        vehicles: [
          vehicle('own', {
            shift_start: '09:00',
            shift_end: '17:00',
            start_location: HOME,
            breaks: [{ earliest: '12:00', latest: '12:30', durationMinutes: 30 }],
          }),
          vehicle('bare'),
        ],
        stops: [
          stop('windowed', {
            service_minutes: '12.5',
            delivery_windows: [{ start: '2026-12-01T08:00:00Z', end: '2026-12-01T09:00:00Z' }],
          }),
          stop('any'),
        ],
      }),
    )
    expect(new Date(origin).toISOString()).toBe('2026-11-30T22:00:00.000Z')
    const [own, bare] = problem.vehicles
    // The vehicle's own shift, start (and so end) and break; the other takes the request's and the depot.
    expect(own).toMatchObject({ shift: [9 * 3600, 17 * 3600], maxWeight: 100 })
    expect(own?.breaks).toEqual([{ earliest: 12 * 3600, latest: 12.5 * 3600, duration: 1800 }])
    expect(points[own?.start ?? -1]).toEqual(HOME)
    expect(own?.end).toBe(own?.start)
    expect(bare).toMatchObject({ shift: [8 * 3600, 18 * 3600], breaks: [] })
    expect(points[bare?.start ?? -1]).toEqual(DEPOT)
    expect(startOf.get('own')).toEqual(HOME)
    // 08:00Z is 10:00 in Johannesburg; the shipment's own service time, else the request's.
    const [windowed, any] = problem.stops
    expect(windowed).toMatchObject({ windows: [[10 * 3600, 11 * 3600]], service: 750, weight: 10 })
    expect(any?.windows).toBeUndefined()
    expect(any?.service).toBe(300)
    // Both stops share one point of the matrix.
    expect(windowed?.location).toBe(any?.location)
  })
})
