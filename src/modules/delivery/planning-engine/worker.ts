import { parentPort } from 'node:worker_threads'
import { solve } from './engine.js'
import { greatCircleMatrixOf } from './great-circle.js'
import type { ThreadRequest } from './thread.js'

/** The engine's thread: each request in, its result (or the error's message) out, one at a time. */
parentPort?.on('message', (request: ThreadRequest) => {
  try {
    if (request.kind === 'solve') {
      parentPort?.postMessage({ ok: true, result: solve(request.problem, request.options) })
    } else {
      const matrix = greatCircleMatrixOf(request.points, request.speedKmh)
      // Handed over, not copied: 16 MB for 1,000 points.
      parentPort?.postMessage({ ok: true, result: matrix }, [
        matrix.durations.buffer,
        matrix.distances.buffer,
      ])
    }
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) })
  }
})
