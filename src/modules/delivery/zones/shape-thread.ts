import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { startWorkerThread } from '../../../db/worker-thread.js'
import type { BodyCheck } from './shape-work.js'

function startWorker(): Worker {
  const worker = startWorkerThread(import.meta.url, 'shape-worker')
  // A waiting thread does not keep the process alive.
  worker.unref()
  return worker
}

type Answer = { ok: true; check: BodyCheck } | { ok: false; error: string }

interface Job {
  bytes: Uint8Array
  resolve: (check: BodyCheck) => void
  reject: (error: Error) => void
}

/**
 * A few threads for large zone bodies, kept once started (starting one costs more than a check),
 * at most one per core but one, and never fewer than one. Bodies beyond what they are busy with
 * wait in order; a check takes tens of milliseconds, so a queue is cheaper than another thread.
 */
const SIZE = Math.max(1, Math.min(2, availableParallelism() - 1))
const idle: Worker[] = []
let started = 0
const queue: Job[] = []

function run(worker: Worker, job: Job) {
  worker.ref()
  const done = () => {
    worker.off('message', answered)
    worker.off('error', fail)
    worker.off('exit', exited)
    worker.unref()
  }
  const fail = (error: Error) => {
    done()
    started--
    void worker.terminate()
    job.reject(error)
    next()
  }
  const exited = (code: number) => fail(new Error(`zone thread exited with code ${code}`))
  const answered = (answer: Answer) => {
    done()
    if (answer.ok) job.resolve(answer.check)
    else job.reject(new Error(`zone check failed: ${answer.error}`))
    park(worker)
    next()
  }
  worker.on('message', answered)
  worker.on('error', fail)
  worker.on('exit', exited)
  worker.postMessage(job.bytes, [job.bytes.buffer as ArrayBuffer])
}

/** A thread waiting for work; one that dies meanwhile is forgotten (the next body starts another). */
function park(worker: Worker) {
  idle.push(worker)
  const gone = () => {
    const at = idle.indexOf(worker)
    if (at < 0) return
    idle.splice(at, 1)
    started--
  }
  worker.once('exit', gone)
  parked.set(worker, gone)
}

/** What forgets a waiting thread if it dies, removed while it works. */
const parked = new WeakMap<Worker, () => void>()

function take(): Worker | undefined {
  const worker = idle.pop()
  const gone = worker && parked.get(worker)
  if (worker && gone) worker.off('exit', gone)
  return worker
}

function next() {
  while (queue.length > 0) {
    let worker = take()
    if (!worker && started < SIZE) {
      started++
      worker = startWorker()
    }
    if (!worker) return
    run(worker, queue.shift() as Job)
  }
}

/**
 * Starts one zone thread ahead of the first large save, in the background (a serving process calls
 * it once listening): from source the thread's start and loading cost a second or more on a loaded
 * machine, which the first large save of a process paid. Does nothing once a thread is started.
 */
export function warmZoneThread() {
  if (started > 0) return
  started++
  park(startWorker())
}

/**
 * A zone request body parsed and checked on a thread of its own (shape-work.ts). The bytes are
 * handed over, not copied: the caller must not use them afterwards.
 */
export function checkBodyInThread(bytes: Uint8Array): Promise<BodyCheck> {
  return new Promise((resolve, reject) => {
    queue.push({ bytes, resolve, reject })
    next()
  })
}
