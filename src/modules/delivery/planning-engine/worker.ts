import { parentPort } from 'node:worker_threads'
import { solve } from './engine.js'
import type { PlanningOptions, PlanningProblem } from './types.js'

/** The engine's thread: each problem in, its result (or the error's message) out, one at a time. */
parentPort?.on('message', (message: { problem: PlanningProblem; options: PlanningOptions }) => {
  try {
    parentPort?.postMessage({ ok: true, result: solve(message.problem, message.options) })
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) })
  }
})
