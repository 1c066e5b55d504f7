import { Worker } from 'node:worker_threads'
import type { PlanningOptions, PlanningProblem, PlanningResult } from './types.js'

// Run from source (tests, `npm run dev`), the worker is TypeScript and needs tsx's loader.
const source = import.meta.url.endsWith('.ts')

type Answer = { ok: true; result: PlanningResult } | { ok: false; error: string }

/**
 * Solves on a thread of its own, so a long plan never holds the event loop: one short-lived worker
 * per plan (starting one costs tens of milliseconds, nothing beside seconds of search).
 */
export function solveInThread(problem: PlanningProblem, options: PlanningOptions): Promise<PlanningResult> {
  const script = new URL(`./worker.${source ? 'ts' : 'js'}`, import.meta.url)
  const worker = source
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}) })`,
        { eval: true },
      )
    : new Worker(script)
  return new Promise<PlanningResult>((resolve, reject) => {
    worker.once('message', (answer: Answer) => {
      if (answer.ok) resolve(answer.result)
      else reject(new Error(`planning failed: ${answer.error}`))
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`planning thread exited with code ${code}`)))
    worker.postMessage({ problem, options })
  })
}
