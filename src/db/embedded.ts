import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import type { PgliteWorkerData, PgliteWorkerMessage } from './pglite-worker.js'

export interface EmbeddedServer {
  /** Directory holding the `.s.PGSQL.5432` socket, as `pg` expects in `host`. */
  socketDir: string
  stop(): Promise<void>
}

/**
 * Starts PGlite in a worker thread. Under tsx/vitest the worker is TypeScript, so it is
 * started through the tsx loader; from the build it is plain JavaScript.
 */
export async function startEmbeddedServer(dataDir: string): Promise<EmbeddedServer> {
  if (dataDir !== 'memory://') mkdirSync(dataDir, { recursive: true })
  // A private directory keeps the socket path short (Unix limit ~107 bytes) and unreachable to others.
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-pg-'))
  const workerData: PgliteWorkerData = { dataDir, socketPath: path.join(socketDir, '.s.PGSQL.5432') }
  const source = import.meta.url.endsWith('.ts')
  const script = new URL(`./pglite-worker.${source ? 'ts' : 'js'}`, import.meta.url)
  const worker = source
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}) })`,
        { eval: true, workerData },
      )
    : new Worker(script, { workerData })
  const next = () =>
    new Promise<PgliteWorkerMessage>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`embedded database thread exited with code ${code}`))
      worker.once('error', reject)
      worker.once('exit', onExit)
      worker.once('message', (m: PgliteWorkerMessage) => {
        worker.off('error', reject)
        worker.off('exit', onExit)
        resolve(m)
      })
    })
  const first = await next()
  if (first.type === 'error') {
    await worker.terminate()
    throw new Error(`embedded database failed to open ${dataDir}: ${first.message}`)
  }
  return {
    socketDir,
    async stop() {
      const closed = next()
      worker.postMessage('close')
      await closed
      await worker.terminate()
      rmSync(socketDir, { recursive: true, force: true })
    },
  }
}
