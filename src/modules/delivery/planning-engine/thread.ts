import type { Worker } from 'node:worker_threads'
import { startWorkerThread } from '../../../db/worker-thread.js'
import type { Point } from './great-circle.js'
import type { PlanningOptions, PlanningProblem, PlanningResult } from './types.js'

type Answer<T> = { ok: true; result: T } | { ok: false; error: string }

const startWorker = () => startWorkerThread(import.meta.url, 'worker')

/**
 * One thread kept after it answered, for the next plan: starting one and loading the engine in it
 * costs a tenth of a second or more, a good part of an autobatch's budget (and an autobatch may
 * solve up to three times in a row). It does not keep the process alive while it waits (unref).
 * Plans solved at the same time each get a thread of their own; only one idle thread is kept.
 */
let idle: Worker | undefined

function release(worker: Worker) {
  if (idle) {
    void worker.terminate()
    return
  }
  worker.unref()
  idle = worker
  // A thread that fails or dies while it waits is forgotten; the next solve starts another.
  const forget = () => {
    if (idle === worker) idle = undefined
    void worker.terminate()
  }
  worker.once('error', forget)
  worker.once('exit', forget)
}

/**
 * Starts the idle thread ahead of the first plan, in the background (a serving process calls it
 * once listening): from source the thread's start and the engine's loading cost 1-3 s on a loaded
 * machine, which the first autobatch of a process paid. Does nothing when a thread is waiting.
 */
export function warmPlanningThread() {
  if (!idle) release(startWorker())
}

/** What the engine's thread is asked: a plan to solve, or a great-circle matrix to compute. */
export type ThreadRequest =
  | { kind: 'solve'; problem: PlanningProblem; options: PlanningOptions }
  | { kind: 'greatCircle'; points: readonly Point[]; speedKmh: number }

function ask<T>(request: ThreadRequest): Promise<T> {
  const worker = idle ?? startWorker()
  idle = undefined
  worker.removeAllListeners()
  worker.ref()
  return new Promise<T>((resolve, reject) => {
    const fail = (error: Error) => {
      worker.removeAllListeners()
      void worker.terminate()
      reject(error)
    }
    worker.once('message', (answer: Answer<T>) => {
      worker.removeAllListeners()
      if (answer.ok) resolve(answer.result)
      else reject(new Error(`planning failed: ${answer.error}`))
      release(worker)
    })
    worker.once('error', fail)
    worker.once('exit', (code) => fail(new Error(`planning thread exited with code ${code}`)))
    worker.postMessage(request)
  })
}

/** Solves on a thread of its own, so a long plan never holds the event loop. */
export const solveInThread = (problem: PlanningProblem, options: PlanningOptions) =>
  ask<PlanningResult>({ kind: 'solve', problem, options })

/**
 * The great-circle matrix of many points, computed on the engine's thread: for 700 points it held
 * the event loop 45-90 ms on a loaded machine, and every other request of the process waited.
 */
export const greatCircleInThread = (points: readonly Point[], speedKmh: number) =>
  ask<{ size: number; durations: Float64Array; distances: Float64Array }>({
    kind: 'greatCircle',
    points,
    speedKmh,
  })
