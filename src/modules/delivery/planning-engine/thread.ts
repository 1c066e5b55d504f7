import { Worker } from 'node:worker_threads'
import type { PlanningOptions, PlanningProblem, PlanningResult } from './types.js'

// Run from source (tests, `npm run dev`), the worker is TypeScript and needs tsx's loader.
const source = import.meta.url.endsWith('.ts')

type Answer = { ok: true; result: PlanningResult } | { ok: false; error: string }

function startWorker(): Worker {
  const script = new URL(`./worker.${source ? 'ts' : 'js'}`, import.meta.url)
  return source
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}) })`,
        { eval: true },
      )
    : new Worker(script)
}

/**
 * One thread started ahead, waiting for the next plan: starting one (and loading the engine in it)
 * costs about 0.1 s, a tenth of an autobatch's budget. It does not keep the process alive while it
 * waits (unref), and one that failed to start is replaced by the next solve.
 */
let spare: Worker | undefined

function takeWorker(): Worker {
  const worker = spare ?? startWorker()
  spare = undefined
  worker.ref()
  return worker
}

function prepareSpare() {
  if (spare) return
  const worker = startWorker()
  worker.unref()
  const forget = () => {
    if (spare === worker) spare = undefined
  }
  worker.once('error', forget)
  worker.once('exit', forget)
  spare = worker
}

/**
 * Solves on a thread of its own, so a long plan never holds the event loop: one worker per plan,
 * ended once it has answered (a plan's search never shares a thread with another's), and the next
 * one started meanwhile so the next plan need not wait for it.
 */
export function solveInThread(problem: PlanningProblem, options: PlanningOptions): Promise<PlanningResult> {
  const worker = takeWorker()
  return new Promise<PlanningResult>((resolve, reject) => {
    worker.once('message', (answer: Answer) => {
      if (answer.ok) resolve(answer.result)
      else reject(new Error(`planning failed: ${answer.error}`))
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`planning thread exited with code ${code}`)))
    worker.postMessage({ problem, options })
    prepareSpare()
  })
}
