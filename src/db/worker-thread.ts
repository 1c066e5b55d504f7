import { Worker, type WorkerOptions } from 'node:worker_threads'

/**
 * Starts the worker thread whose script is `name` beside the module at `from` (its
 * `import.meta.url`): the built `.js`, or, run from source (tests, `npm run dev`), the `.ts`
 * through tsx's loader, which a new thread does not inherit. In db/ so that every layer may use it.
 */
export function startWorkerThread(from: string, name: string, options: WorkerOptions = {}): Worker {
  const source = from.endsWith('.ts')
  const script = new URL(`./${name}.${source ? 'ts' : 'js'}`, from)
  if (!source) return new Worker(script, options)
  return new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}) })`,
    { ...options, eval: true },
  )
}
