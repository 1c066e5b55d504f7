import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { type DataDirLock, lockDataDir } from './data-dir-lock.js'
import type { MigrationSet } from './migrator.js'
import type { CompiledWasm, PgliteWorkerData, PgliteWorkerMessage } from './pglite-worker.js'
import { startWorkerThread } from './worker-thread.js'

export interface EmbeddedServer {
  /** Directory holding the `.s.PGSQL.5432` socket, as `pg` expects in `host`. */
  socketDir: string
  /**
   * Stops the database thread whatever it is running and starts a new one on the same data
   * directory (PostgreSQL's crash recovery; committed transactions are on disk). A statement running
   * inside PGlite's WASM cannot be cancelled (statement_timeout needs a signal that never comes
   * there); terminating its thread is what stops it. Connections to the old thread end; new ones
   * reach the new thread. Absent for `memory://`, whose data would be lost.
   */
  restart?: () => Promise<void>
  /** Starts a thread that waits, loaded, to make the next restart quicker (idempotent; one thread's memory). */
  prepareRestart?: () => void
  /** The size of the database thread's WASM heap in bytes (it grows and never shrinks until a restart). */
  heapBytes(): Promise<number>
  stop(): Promise<void>
}

/**
 * PostgreSQL's shared buffer cache of the embedded database, in MB. PGlite's own default (128 MB,
 * touched at start inside the WASM heap) makes an idle server hold ~280 MB more; 16 MB holds a small
 * business's hot data and the operating system's page cache serves the rest (bench/MEMORY.md).
 */
export const DEFAULT_EMBEDDED_SHARED_BUFFERS_MB = 16

export interface EmbeddedOptions {
  /** PostgreSQL's shared_buffers in MB; default DEFAULT_EMBEDDED_SHARED_BUFFERS_MB. */
  sharedBuffersMb?: number
  /** Called if the data-directory lock is lost while open (another process took it over). */
  onLockLost?: (error: Error) => void
  /** A new data directory is migrated with these by the process that creates it (see pglite-init). */
  migrateNewDataDir?: MigrationSet
}

/** Run from source (tsx, vitest), the init process needs tsx's loader too. */
const source = import.meta.url.endsWith('.ts')

/** initdb in a short-lived process, so the server never carries its memory (see pglite-init). */
async function createDataDir(dataDir: string, migrations: MigrationSet | undefined) {
  const script = new URL(`./pglite-init.${source ? 'ts' : 'js'}`, import.meta.url)
  // The migrations travel as a JSON file: the init process knows no modules of its own.
  const handOver = migrations ? mkdtempSync(path.join(os.tmpdir(), 'cartage-init-')) : undefined
  const migrationsFile = handOver && path.join(handOver, 'migrations.json')
  if (migrationsFile) writeFileSync(migrationsFile, JSON.stringify(migrations), { mode: 0o600 })
  const args = [
    ...(source ? ['--import', 'tsx'] : []),
    script.pathname,
    dataDir,
    ...(migrationsFile ? [migrationsFile] : []),
  ]
  try {
    // A guard against a hung child, not a budget: on a slow or busy machine initdb and the
    // migrations have taken over two minutes.
    await promisify(execFile)(process.execPath, args, { timeout: 600_000 })
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim()
    throw new Error(`embedded database failed to create ${dataDir}: ${stderr || String(error)}`)
  } finally {
    if (handOver) rmSync(handOver, { recursive: true, force: true })
  }
}

/**
 * PGlite's WASM, compiled once per process: every start of the database thread, a restart above
 * all, instantiates it rather than compiling 9 MB again (about half of a restart's time).
 */
let compiledPglite: Promise<CompiledWasm> | undefined
// The compiler's lib (ES2023, no DOM) declares no WebAssembly global; Node has it.
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> } })
  .WebAssembly
const pgliteWasmModule = () => {
  // Beside the package's entry point (import.meta.resolve is not available under every loader).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  compiledPglite ??= readFile(path.join(path.dirname(entry), 'pglite.wasm')).then((bytes) =>
    wasm.compile(bytes),
  )
  return compiledPglite
}

/** Starts PGlite in a worker thread. */
function startWorker(workerData: PgliteWorkerData) {
  const worker = startWorkerThread(import.meta.url, 'pglite-worker', { workerData })
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
  return { worker, next }
}

async function runWorker(workerData: PgliteWorkerData) {
  const { worker, next } = startWorker(workerData)
  const first = await next()
  if (first.type === 'error') {
    await worker.terminate()
    throw new Error(`embedded database failed to open ${workerData.dataDir}: ${first.message}`)
  }
  return { worker, next }
}

// Socket directories still open, removed on any exit path (even process.exit after a failed start).
const openSocketDirs = new Set<string>()
let exitHookInstalled = false
function trackSocketDir(dir: string) {
  openSocketDirs.add(dir)
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const d of openSocketDirs) rmSync(d, { recursive: true, force: true })
  })
}
function removeSocketDir(dir: string) {
  openSocketDirs.delete(dir)
  rmSync(dir, { recursive: true, force: true })
}

const defaultLockLost = (error: Error) =>
  process.stderr.write(`cartage: lost the data directory lock: ${error.message}\n`)

export async function startEmbeddedServer(
  dataDir: string,
  options: EmbeddedOptions = {},
): Promise<EmbeddedServer> {
  let lock: DataDirLock | undefined
  if (dataDir !== 'memory://') {
    mkdirSync(dataDir, { recursive: true })
    // Before anything reads the directory: a second process stops here.
    lock = await lockDataDir(dataDir, options.onLockLost ?? defaultLockLost)
  }
  let socketDir: string | undefined
  try {
    if (dataDir !== 'memory://' && !existsSync(path.join(dataDir, 'PG_VERSION')))
      await createDataDir(dataDir, options.migrateNewDataDir)
    // A private directory keeps the socket path short (Unix limit ~107 bytes) and unreachable to others.
    socketDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-pg-'))
    trackSocketDir(socketDir)
    const socketPath = path.join(socketDir, '.s.PGSQL.5432')
    const workerData: PgliteWorkerData = {
      dataDir,
      socketPath,
      wasmModule: await pgliteWasmModule(),
      sharedBuffersMb: options.sharedBuffersMb ?? DEFAULT_EMBEDDED_SHARED_BUFFERS_MB,
    }
    let current = await runWorker(workerData)
    // A thread already started and loaded, for the next restart: without it a restart also waits for a
    // thread to start and load PGlite (about half of its time, more on a busy machine).
    let standby: (ReturnType<typeof startWorker> & { dead: () => boolean }) | undefined
    const prepareRestart = () => {
      if (standby) return
      const started = startWorker({ ...workerData, standby: true })
      let dead = false
      // A standby that failed is replaced by a fresh start at the restart.
      started.worker.on('error', () => {})
      started.worker.once('exit', () => {
        dead = true
      })
      standby = { ...started, dead: () => dead }
    }
    let restarting: Promise<void> | undefined
    const restart = () => {
      restarting ??= (async () => {
        try {
          await current.worker.terminate()
          // The killed thread never closed its socket: the new one must be able to listen there.
          rmSync(socketPath, { force: true })
          const ready = standby && !standby.dead() ? standby : undefined
          standby = undefined
          const next = ready ?? startWorker(workerData)
          ready?.worker.postMessage('open')
          const first = await next.next()
          if (first.type === 'error') {
            await next.worker.terminate()
            throw new Error(`embedded database failed to reopen ${dataDir}: ${first.message}`)
          }
          current = next
          prepareRestart()
        } finally {
          restarting = undefined
        }
      })()
      return restarting
    }
    const ownSocketDir = socketDir
    return {
      socketDir,
      ...(dataDir === 'memory://' ? {} : { restart, prepareRestart }),
      heapBytes: () =>
        new Promise<number>((resolve, reject) => {
          const { worker } = current
          const onMessage = (message: PgliteWorkerMessage) => {
            if (message.type !== 'heap') return
            worker.off('message', onMessage)
            worker.off('exit', reject)
            resolve(message.bytes)
          }
          worker.on('message', onMessage)
          worker.once('exit', reject)
          worker.postMessage('heap')
        }),
      async stop() {
        try {
          await restarting?.catch(() => {})
          await standby?.worker.terminate()
          const { worker, next } = current
          const closed = next()
          // (next() takes the first message: no heap question is pending while the server stops.)
          worker.postMessage('close')
          await closed
          await worker.terminate()
        } finally {
          removeSocketDir(ownSocketDir)
          await lock?.release()
        }
      },
    }
  } catch (error) {
    if (socketDir) removeSocketDir(socketDir)
    await lock?.release()
    throw error
  }
}
