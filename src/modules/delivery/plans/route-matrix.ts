import { greatCircleInThread, greatCircleMatrixOf, type PlanningMatrix } from '../planning-engine/index.js'
import type { Point } from './routing.js'

/** Travel times (seconds) and distances (metres) between points, for the planning engine. */
export interface MatrixProvider {
  readonly name: string
  matrix(points: readonly Point[]): Promise<PlanningMatrix>
}

/**
 * From this many points the matrix is computed on the planning engine's thread (it grows with the
 * square: 700 points held the event loop 45-90 ms on a loaded machine); below, a round trip costs more.
 */
const IN_THREAD_FROM = 200

/** Great-circle distance at a steady speed: no road network, works offline, deterministic. */
export function greatCircleMatrix(speedKmh: number): MatrixProvider {
  return {
    name: 'great-circle',
    matrix: async (points) =>
      points.length < IN_THREAD_FROM
        ? greatCircleMatrixOf(points, speedKmh)
        : greatCircleInThread(
            points.map(({ latitude, longitude }) => ({ latitude, longitude })),
            speedKmh,
          ),
  }
}

interface OsrmTable {
  code?: string
  message?: string
  durations?: (number | null)[][]
  distances?: (number | null)[][]
}

/**
 * A road network speaking OSRM's table protocol (`GET <url>/table/v1/driving/<lon,lat;...>
 * ?annotations=duration,distance`): durations in seconds, distances in metres, null for a pair
 * with no route (unreachable to the engine).
 */
export function osrmMatrix(
  baseUrl: string,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
): MatrixProvider {
  return {
    name: 'osrm',
    async matrix(points) {
      const size = points.length
      if (size === 0) return { size, durations: [], distances: [] }
      const coordinates = points.map((p) => `${p.longitude.toFixed(6)},${p.latitude.toFixed(6)}`).join(';')
      const url = `${baseUrl}/table/v1/driving/${coordinates}?annotations=duration,distance`
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) })
      const body = (await response.json().catch(() => ({}))) as OsrmTable
      if (!response.ok || body.code !== 'Ok' || !body.durations) {
        throw new Error(
          `road network answered ${response.status} ${body.code ?? ''} ${body.message ?? ''}`.trim(),
        )
      }
      const flat = (rows: (number | null)[][] | undefined) => {
        const out = new Float64Array(size * size).fill(Number.POSITIVE_INFINITY)
        rows?.forEach((row, i) => {
          row.forEach((value, j) => {
            if (i < size && j < size && typeof value === 'number') out[i * size + j] = value
          })
        })
        return out
      }
      const durations = flat(body.durations)
      return { size, durations, distances: body.distances ? flat(body.distances) : durations }
    },
  }
}
