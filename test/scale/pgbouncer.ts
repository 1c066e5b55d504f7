import { execFile, spawn } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from '../own-postgres.js'

const run = promisify(execFile)
const PGBOUNCER = '/usr/sbin/pgbouncer'

/** Whether Debian's pgbouncer package is installed (the gate installs it). */
export const canRunPgBouncer = existsSync(PGBOUNCER)

export interface PgBouncer {
  /** `target` with the pooler's host and port in place of PostgreSQL's. */
  url: string
  /** Stops it and removes its directory. */
  stop(): Promise<void>
}

/**
 * PgBouncer in transaction mode in a temporary directory on a free port, in front of the
 * PostgreSQL server of `target` (every database name passes through). PgBouncer refuses to run as
 * root: as root, it runs as the `postgres` user the Debian package creates.
 */
export async function startPgBouncer(target: string, poolSize = 10): Promise<PgBouncer> {
  const server = new URL(target)
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cartage-pgbouncer-'))
  const port = await freePort()
  writeFileSync(path.join(dir, 'userlist.txt'), `"${decodeURIComponent(server.username) || 'postgres'}" ""\n`)
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || '5432'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      `default_pool_size = ${poolSize}`,
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  )
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const uid = Number(stdout.trim())
    for (const file of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(path.join(dir, file), uid, uid)
    chmodSync(dir, 0o700)
  }
  const ini = path.join(dir, 'pgbouncer.ini')
  const child = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, ini], { stdio: 'ignore', detached: true })
    : spawn(PGBOUNCER, [ini], { stdio: 'ignore', detached: true })
  // Its own process group, so a stop reaches pgbouncer under runuser too.
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, name)
    } catch {}
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 20_000
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      signal('SIGKILL')
      throw new Error(`pgbouncer did not start on port ${port} (see ${dir}/pgbouncer.log)`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  const url = new URL(target)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  return {
    url: url.toString(),
    stop: async () => {
      // SIGINT: PgBouncer's immediate shutdown (runuser passes the signal on).
      signal('SIGINT')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
      signal('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
