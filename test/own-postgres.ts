import { execFile } from 'node:child_process'
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The newest PostgreSQL server installed from Debian's packages (`/usr/lib/postgresql/<major>/bin`). */
function serverBin(): string | undefined {
  try {
    const majors = readdirSync('/usr/lib/postgresql')
      .map(Number)
      .filter((major) => Number.isInteger(major))
      .sort((a, b) => b - a)
    return majors.length ? `/usr/lib/postgresql/${majors[0]}/bin` : undefined
  } catch {
    return undefined
  }
}

/** Whether this machine can run a PostgreSQL server of a test's own (Debian's packages are installed). */
export const canRunOwnPostgres = serverBin() !== undefined

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string
  port: number
  /** Stops the server at once, as a crash or an operator's `pg_ctl stop -m immediate` would. */
  stop(): Promise<void>
  start(): Promise<void>
  /** Stops it and removes its directory. */
  destroy(): Promise<void>
}

/**
 * A PostgreSQL server of the test's own, on a free port in a temporary directory, which the test
 * may stop and start (the shared server of the suite must never be). PostgreSQL refuses to run as
 * root: as root, the cluster belongs to the `postgres` user the Debian package creates.
 */
export async function startOwnPostgres(settings: Record<string, string> = {}): Promise<OwnPostgres> {
  const { bin, dir, dataDir, as } = await ownDirectory()
  await as(`${bin}/initdb`, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  return startIn(bin, dir, dataDir, as, settings)
}

/**
 * A streaming replica of `primary` (a hot standby: `pg_basebackup -R`, as docs/deployment.md says),
 * on a free port of its own. `primary` must be a server of the test's own (startOwnPostgres).
 */
export async function startOwnReplica(primary: OwnPostgres): Promise<OwnPostgres> {
  const { bin, dir, dataDir, as } = await ownDirectory()
  await as(`${bin}/pg_basebackup`, [
    ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dataDir],
    ...['-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
  ])
  return startIn(bin, dir, dataDir, as)
}

type RunAs = (command: string, args: string[]) => Promise<unknown>

/**
 * A temporary directory the server's user owns (the `postgres` user when the test runs as root),
 * with the PostgreSQL bin directory and a way to run a command as that user (`as`; `asRoot` says
 * whether a long-running process must be started through `runuser -u postgres` too).
 */
export async function ownDirectory(prefix = 'cartage-own-pg-'): Promise<{
  bin: string
  dir: string
  dataDir: string
  as: RunAs
  asRoot: boolean
}> {
  const bin = serverBin()
  if (!bin) throw new Error('no PostgreSQL server under /usr/lib/postgresql')
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  const dataDir = path.join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const uid = Number(stdout.trim())
    chownSync(dir, uid, uid)
    chmodSync(dir, 0o700)
  }
  const as: RunAs = (command, args) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args)
  return { bin, dir, dataDir, as, asRoot }
}

async function startIn(
  bin: string,
  dir: string,
  dataDir: string,
  as: RunAs,
  settings: Record<string, string> = {},
): Promise<OwnPostgres> {
  const port = await freePort()
  const extra = Object.entries(settings).map(([name, value]) => ` -c ${name}=${value}`)
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB${extra.join('')}`
  const pgCtl = (args: string[]) => as(`${bin}/pg_ctl`, ['-D', dataDir, '-s', ...args])
  const start = async () => {
    await pgCtl(['-o', options, '-l', path.join(dir, 'log'), '-w', 'start'])
  }
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: async () => {
      await pgCtl(['-m', 'immediate', 'stop'])
    },
    start,
    destroy: async () => {
      await pgCtl(['-m', 'immediate', 'stop']).catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
