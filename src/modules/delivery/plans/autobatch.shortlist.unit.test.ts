import { describe, expect, it } from 'vitest'
import type { PlanningProblem } from '../planning-engine/index.js'
import { SHORTLIST_FROM, shortlist } from './autobatch.shortlist.js'
import type { Point } from './routing.js'

/** A depot at index 0 and `n` stops on a line east of it, 1 km apart (stop i at i+1 km), 5 min each. */
function line(n: number, shift: [number, number]) {
  const points: Point[] = [{ latitude: 0, longitude: 0 }]
  for (let i = 0; i < n; i++) points.push({ latitude: 0, longitude: ((i + 1) * 1) / 111.195 })
  const problem: PlanningProblem = {
    stops: points
      .slice(1)
      .map((_, i) => ({ id: `s${String(i).padStart(4, '0')}`, location: i + 1, service: 300 })),
    vehicles: [{ id: 'v', start: 0, end: 0, shift }],
    matrix: { size: 0, durations: [] },
  }
  return { problem, points }
}

describe('autobatch shortlist', () => {
  it('hands every candidate to the engine up to the threshold', () => {
    const { problem, points } = line(SHORTLIST_FROM, [0, 3600])
    const result = shortlist(problem, points, new Set(), 60)
    expect(result.cut).toEqual([])
    expect(result.kept).toHaveLength(SHORTLIST_FROM)
  })

  it('keeps the nearest, never the plan’s own, and cuts the rest as beyond the shift', () => {
    // One hour at 60 km/h with 5 minutes a stop: a greedy day serves about ten of 400.
    const { problem, points } = line(400, [0, 3600])
    const own = new Set(['s0399'])
    const result = shortlist(problem, points, own, 60)
    expect(result.estimate).toBeGreaterThan(3)
    expect(result.estimate).toBeLessThan(15)
    const kept = result.kept.map((s) => s.id)
    expect(kept).toContain('s0399')
    expect(kept).toHaveLength(121)
    expect(kept.slice(0, 120)).toEqual(problem.stops.slice(0, 120).map((s) => s.id))
    expect(result.cut).toHaveLength(279)
    expect(result.cut.every((c) => c.reason === 'shift')).toBe(true)
  })

  it('names capacity when the load, not the shift, ends the day', () => {
    const { problem, points } = line(400, [0, 36_000])
    const heavy = {
      ...problem,
      stops: problem.stops.map((s) => ({ ...s, weight: 10 })),
      vehicles: [{ id: 'v', start: 0, end: 0, shift: [0, 360_000] as const, maxWeight: 100 }],
    }
    const result = shortlist(heavy, points, new Set(), 60)
    expect(result.estimate).toBe(10)
    expect(result.kept).toHaveLength(120)
    expect(result.cut.every((c) => c.reason === 'capacity')).toBe(true)
  })
})
