import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { greatCircleMatrixOf } from '../planning-engine/index.js'
import { greatCircleMatrix, osrmMatrix } from './route-matrix.js'

const points = [
  { latitude: 51.5, longitude: -0.12 },
  { latitude: 51.52, longitude: -0.1 },
  { latitude: 51.48, longitude: -0.15 },
]

describe('the great-circle matrix', () => {
  it('gives metres and seconds at the configured speed', async () => {
    const m = await greatCircleMatrix(36).matrix(points)
    expect(m.size).toBe(3)
    expect(m.durations[0]).toBe(0)
    // 36 km/h is 10 m/s.
    expect(m.durations[1]).toBeCloseTo((m.distances?.[1] ?? 0) / 10, 6)
    expect(m.distances?.[1]).toBeGreaterThan(2000)
  })

  it("computes a large one on the planning engine's thread, to the bit what the event loop would", async () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      latitude: -34 + Math.sin(i) * 0.9,
      longitude: 18.5 + Math.cos(i * 1.3) * 0.9,
      label: `stop ${i}`, // a point may carry more than its coordinates
    }))
    const m = await greatCircleMatrix(40).matrix(many)
    const inline = greatCircleMatrixOf(many, 40)
    expect(m.size).toBe(300)
    expect(Array.from(m.durations)).toEqual(Array.from(inline.durations))
    expect(Array.from(m.distances ?? [])).toEqual(Array.from(inline.distances))
  })
})

describe('the OSRM table client, against a local stand-in answering that protocol', () => {
  let server: Server
  let base = ''
  const asked: string[] = []
  beforeAll(async () => {
    server = createServer((request, response) => {
      asked.push(request.url ?? '')
      response.setHeader('content-type', 'application/json')
      if (request.url?.includes('0.000000,0.000000')) {
        response.statusCode = 400
        response.end(JSON.stringify({ code: 'InvalidQuery', message: 'no road near' }))
        return
      }
      response.end(
        JSON.stringify({
          code: 'Ok',
          durations: [
            [0, 100, 200],
            [110, 0, null],
            [210, 300, 0],
          ],
          distances: [
            [0, 1000, 2000],
            [1100, 0, null],
            [2100, 3000, 0],
          ],
        }),
      )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('asks for durations and distances, longitude first, and reads null as unreachable', async () => {
    const m = await osrmMatrix(base, 2000).matrix(points)
    expect(asked.at(-1)).toBe(
      '/table/v1/driving/-0.120000,51.500000;-0.100000,51.520000;-0.150000,51.480000?annotations=duration,distance',
    )
    expect(Array.from(m.durations)).toEqual([0, 100, 200, 110, 0, Number.POSITIVE_INFINITY, 210, 300, 0])
    expect(m.distances?.[5]).toBe(Number.POSITIVE_INFINITY)
    expect(m.distances?.[7]).toBe(3000)
  })

  it('fails with the service’s own words when it refuses', async () => {
    await expect(osrmMatrix(base, 2000).matrix([{ latitude: 0, longitude: 0 }])).rejects.toThrow(
      'road network answered 400 InvalidQuery no road near',
    )
  })
})
