import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import lockfile from 'proper-lockfile'

/**
 * One process per embedded data directory: two PGlite instances writing one directory corrupt
 * it. The lock is a directory created atomically inside the data directory and refreshed every
 * second; a lock whose holder died (kill -9, power loss) goes stale after STALE_MS and is taken
 * over. The holder's pid sits beside it so a refused process can say who holds the directory.
 */
const LOCK_NAME = 'cartage.lock'
const HOLDER_NAME = 'cartage.lock.pid'
const STALE_MS = 5_000
const UPDATE_MS = 1_000

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | undefined,
  ) {
    super(
      `the data directory ${dataDir} is in use by ${holderPid ? `process ${holderPid}` : 'another process'}; ` +
        'stop that process first (one process per embedded database)',
    )
    this.name = 'DataDirInUseError'
  }
}

export interface DataDirLock {
  release(): Promise<void>
}

/** Base URLs of the APIs a server holding the directory serves, as other local processes reach them. */
export interface ServedApis {
  core?: string
  global?: string
}

interface Holder {
  pid: number
  since: string
  command: string
  /** Written once the holder serves its APIs (`cartage serve`); absent while it starts or for other commands. */
  apis?: ServedApis
}

const holderPath = (dataDir: string) => path.join(dataDir, HOLDER_NAME)

function readHolder(dataDir: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(holderPath(dataDir), 'utf8')) as Partial<Holder>
    return typeof parsed.pid === 'number' ? (parsed as Holder) : undefined
  } catch {
    return undefined
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Records, beside the lock this process holds, the addresses of the APIs it serves, so that a
 * command refused the directory (`cartage seed`) can go through the server instead.
 */
export function recordServedApis(dataDir: string, apis: ServedApis): void {
  const holder = readHolder(dataDir)
  if (holder?.pid !== process.pid) return
  // Replaced whole, so a reader never sees half a file.
  const temporary = `${holderPath(dataDir)}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify({ ...holder, apis })}\n`)
  renameSync(temporary, holderPath(dataDir))
}

/** The live process holding the directory and the APIs it has said it serves, if any. */
export function dataDirHolder(dataDir: string): { pid: number; apis: ServedApis } | undefined {
  const holder = readHolder(dataDir)
  if (!holder || holder.pid === process.pid || !isAlive(holder.pid)) return undefined
  return { pid: holder.pid, apis: holder.apis ?? {} }
}

/**
 * Takes the lock or throws DataDirInUseError at once when a live process holds it. A holder that
 * died is waited out (at most STALE_MS) rather than removed by hand, so two starters racing over
 * a dead holder's lock cannot both win.
 */
export async function lockDataDir(
  dataDir: string,
  onCompromised: (error: Error) => void,
): Promise<DataDirLock> {
  const options = {
    lockfilePath: path.join(dataDir, LOCK_NAME),
    stale: STALE_MS,
    update: UPDATE_MS,
    realpath: false,
    onCompromised,
  }
  const deadline = Date.now() + STALE_MS + 2_000
  for (;;) {
    try {
      const release = await lockfile.lock(dataDir, options)
      const holder: Holder = {
        pid: process.pid,
        since: new Date().toISOString(),
        command: process.argv.slice(1).join(' '),
      }
      writeFileSync(holderPath(dataDir), `${JSON.stringify(holder)}\n`)
      return {
        async release() {
          rmSync(holderPath(dataDir), { force: true })
          await release()
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
      const holder = readHolder(dataDir)
      // A live holder (or one that has not yet written its pid, a moment after taking the lock).
      if (holder && holder.pid !== process.pid && isAlive(holder.pid))
        throw new DataDirInUseError(dataDir, holder.pid)
      if (Date.now() > deadline) throw new DataDirInUseError(dataDir, holder?.pid)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}
