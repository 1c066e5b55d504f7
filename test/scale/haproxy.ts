import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../own-postgres.js'

const HAPROXY = '/usr/sbin/haproxy'

/** Whether Debian's haproxy package is installed (the gate installs it). */
export const canRunHaproxy = existsSync(HAPROXY)

export interface Haproxy {
  core: string
  global: string
  /** Each server's state as HAProxy's health checks see it (`UP`, `DOWN`, ...), by `<api>/<name>`. */
  states(): Promise<Record<string, string>>
  stop(): Promise<void>
}

/**
 * HAProxy in front of Cartage processes (Core and Global API ports of each), round robin, each
 * server checked on `GET /health/ready` every 300 ms (out after 2 failures, back after 2 passes).
 * A request that cannot connect to a server goes to another (`retry-on conn-failure`), so only
 * the requests a stopped process had already taken fail.
 */
export async function startHaproxy(servers: { name: string; corePort: number; globalPort: number }[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cartage-haproxy-'))
  const [corePort, globalPort, statsPort] = [await freePort(), await freePort(), await freePort()]
  const backend = (api: 'core' | 'global', port: (s: (typeof servers)[number]) => number) => [
    `backend ${api}`,
    '  balance roundrobin',
    '  option httpchk GET /health/ready',
    '  default-server inter 300ms fall 2 rise 2',
    ...servers.map((s) => `  server ${s.name} 127.0.0.1:${port(s)} check`),
  ]
  const config = [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 2',
    '  option redispatch 1',
    '  retry-on conn-failure',
    `frontend core`,
    `  bind 127.0.0.1:${corePort}`,
    '  default_backend core',
    `frontend global`,
    `  bind 127.0.0.1:${globalPort}`,
    '  default_backend global',
    'frontend stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    ...backend('core', (s) => s.corePort),
    ...backend('global', (s) => s.globalPort),
    '',
  ].join('\n')
  const running = await runHaproxy(dir, config, statsPort)
  return {
    core: `http://127.0.0.1:${corePort}`,
    global: `http://127.0.0.1:${globalPort}`,
    ...running,
  } satisfies Haproxy
}

/**
 * HAProxy in TCP mode in front of PostgreSQL servers under Patroni: each server is checked on its
 * Patroni REST API's `GET /primary` every 500 ms, which answers 200 on the leader only, so
 * connections reach the current primary; a server marked down has its connections cut
 * (`on-marked-down shutdown-sessions`), so none is left talking to a former primary.
 */
export async function startPostgresHaproxy(servers: { name: string; port: number; restPort: number }[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cartage-haproxy-'))
  const [port, statsPort] = [await freePort(), await freePort()]
  const config = [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 30m',
    '  timeout server 30m',
    '  retries 2',
    'listen postgres',
    `  bind 127.0.0.1:${port}`,
    '  option httpchk GET /primary',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
    ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check port ${s.restPort}`),
    'frontend stats',
    '  mode http',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n')
  const running = await runHaproxy(dir, config, statsPort)
  return { port, ...running }
}

/** Runs HAProxy on `config` in `dir` until its stats page (on `statsPort`) answers. */
async function runHaproxy(dir: string, config: string, statsPort: number) {
  const file = path.join(dir, 'haproxy.cfg')
  writeFileSync(file, config)
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] })
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const statsUrl = `http://127.0.0.1:${statsPort}/stats;csv`
  const states = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(statsUrl)).text()
    const result: Record<string, string> = {}
    for (const line of csv.split('\n').slice(1)) {
      const cells = line.split(',')
      const [proxy, name, status] = [cells[0], cells[1], cells[17]]
      if (proxy && name && status && name !== 'FRONTEND' && name !== 'BACKEND')
        result[`${proxy}/${name}`] = status
    }
    return result
  }
  const deadline = Date.now() + 20_000
  for (;;) {
    if (
      await states().then(
        () => true,
        () => false,
      )
    )
      break
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`haproxy did not start:\n${errors}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    /** Each server's state as HAProxy's health checks see it (`UP`, `DOWN`, ...), by `<proxy>/<name>`. */
    states,
    stop: async () => {
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
