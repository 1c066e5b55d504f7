import { describe, expect, it } from 'vitest'
import { solve } from './engine.js'
import { solveInThread } from './thread.js'
import type { PlanningProblem } from './types.js'

describe('the planning thread', () => {
  it('answers what the engine answers in this thread, and leaves the event loop free meanwhile', async () => {
    const size = 41
    const durations = new Float64Array(size * size)
    for (let i = 0; i < size; i++)
      for (let j = 0; j < size; j++)
        durations[i * size + j] = Math.abs(((i * 7) % 41) - ((j * 7) % 41)) + (i === j ? 0 : 1)
    const problem: PlanningProblem = {
      stops: Array.from({ length: size - 1 }, (_, i) => ({ id: `s${i}`, location: i + 1, weight: 1 })),
      vehicles: [
        { id: 'a', start: 0, end: 0, maxWeight: 20 },
        { id: 'b', start: 0, end: 0, maxWeight: 20 },
      ],
      matrix: { size, durations },
    }
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const inThread = await solveInThread(problem, { seed: 5, iterations: 3000 })
    clearInterval(timer)
    expect(inThread).toEqual(solve(problem, { seed: 5, iterations: 3000 }))
    expect(inThread.unassigned).toEqual([])
    expect(ticks).toBeGreaterThan(0)
  })
})
