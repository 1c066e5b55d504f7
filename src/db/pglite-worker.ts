/**
 * Runs the embedded database (PGlite) on its own thread and serves it over the PostgreSQL
 * wire protocol on a private Unix socket. The HTTP thread talks to it with the same `pg`
 * driver as production, so one slow query never blocks the event loop and both modes share
 * one code path.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

/**
 * A compiled WebAssembly module, as PGlite takes it (named through PGlite's options: the server's
 * build has no DOM lib, where the WebAssembly namespace's types live).
 */
export type CompiledWasm = NonNullable<PGliteOptions['pgliteWasmModule']>

export interface PgliteWorkerData {
  /** A directory for persistent data, or `memory://` for a throwaway database. */
  dataDir: string
  socketPath: string
  sharedBuffersMb: number
  /** PGlite's WASM, compiled by the main thread once for every start of this thread. */
  wasmModule: CompiledWasm
  /** A standby for a restart: loaded, it waits for the message 'open' before it opens the data directory. */
  standby?: boolean
}

export type PgliteWorkerMessage =
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | { type: 'closed' }
  | { type: 'heap'; bytes: number }

const { dataDir, socketPath, sharedBuffersMb, wasmModule, standby } = workerData as PgliteWorkerData

/**
 * Memory: PGlite's defaults (shared_buffers 128 MB, touched at start inside the WASM heap, and
 * room for 100 connections) cost ~280 MB for one connection. Our shared_buffers is a setting
 * (EMBEDDED_SHARED_BUFFERS_MB); the embedded database has one connection.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['-c', `shared_buffers=${sharedBuffersMb}MB`, '-c', 'max_connections=8'],
]
const port = parentPort
if (!port) throw new Error('pglite-worker must run as a worker thread')

// Two threads never open one data directory: a standby waits until the thread it replaces is gone.
if (standby) await new Promise((resolve) => port.once('message', resolve))

try {
  // pg_trgm: the trigram indexes of $search (migration enable-pg-trgm).
  const db = await PGlite.create(dataDir, {
    startParams: START_PARAMS,
    extensions: { pg_trgm },
    pgliteWasmModule: wasmModule,
  })
  // The pool holds one connection; a second is accepted so that a connection opened to replace a
  // lost one is not refused while the server is still closing the old one.
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 2 })
  await server.start()
  port.on('message', async (message: unknown) => {
    if (message === 'heap') {
      // PGlite keeps its Emscripten module private; its heap only grows, so its size is the high-water mark.
      const heap = (db as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8
      port.postMessage({ type: 'heap', bytes: heap?.byteLength ?? 0 } satisfies PgliteWorkerMessage)
      return
    }
    if (message !== 'close') return
    try {
      await server.stop()
      await db.close()
    } finally {
      port.postMessage({ type: 'closed' } satisfies PgliteWorkerMessage)
    }
  })
  port.postMessage({ type: 'ready' } satisfies PgliteWorkerMessage)
} catch (error) {
  port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) })
}
