import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { canRunOwnPostgres, freePort, ownDirectory } from '../own-postgres.js'

const PATRONI = '/usr/bin/patroni'
const ETCD = '/usr/bin/etcd'

/** Whether Debian's patroni and etcd-server packages are installed (the gate installs them). */
export const canRunPatroni = canRunOwnPostgres && existsSync(PATRONI) && existsSync(ETCD)

/** The seconds that decide how fast a failover is: the leader key's lifetime, Patroni's loop, a DCS retry. */
export const PATRONI_TIMING = { ttl: 10, loop_wait: 1, retry_timeout: 3 } as const

export interface PatroniNode {
  name: string
  /** PostgreSQL's port (`postgres://postgres@127.0.0.1:<port>/postgres` is `url`). */
  port: number
  url: string
  /** Patroni's REST API port (`GET /primary` answers 200 on the leader only). */
  restPort: number
}

export interface PatroniCluster {
  nodes: PatroniNode[]
  /** The node that holds the leader key and runs as primary, as Patroni's REST API says. */
  leader(): Promise<PatroniNode | undefined>
  /** Waits for a leader with a streaming synchronous standby; returns the leader. */
  waitUntilSynchronous(timeoutMs?: number): Promise<PatroniNode>
  /** kill -9 of the node's Patroni and of its PostgreSQL, as losing the machine would do. */
  kill(node: PatroniNode): void
  /** Stops every process and removes every directory. */
  stop(): Promise<void>
}

interface Running {
  node: PatroniNode
  dir: string
  dataDir: string
  child: ChildProcess
}

/** A process in a group of its own, its output in `log`; as the `postgres` user when `asPostgres`. */
function spawnLogged(command: string, args: string[], log: string, asPostgres: boolean): ChildProcess {
  const out = openSync(log, 'a')
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]
  const child = spawn(file, argv, { stdio: ['ignore', out, out], detached: true })
  closeSync(out)
  return child
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, signal)
  } catch {}
}

async function exitOf(child: ChildProcess, timeoutMs: number) {
  if (child.exitCode !== null || child.signalCode !== null) return
  await Promise.race([
    new Promise((resolve) => child.once('exit', resolve)),
    new Promise((resolve) => setTimeout(resolve, timeoutMs)),
  ])
}

/** The postmaster's process id, from its data directory (Patroni starts it in a session of its own). */
function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await sleep(200)
  }
}

/**
 * etcd (one member) and two Patroni nodes on free ports in temporary directories, with
 * `synchronous_mode: true`: a commit is acknowledged once the standby has it, so the standby that
 * takes over has every acknowledged write. Patroni and PostgreSQL run as the `postgres` user when
 * the test runs as root. Returns once the first node leads and the second streams synchronously.
 */
export async function startPatroniCluster(): Promise<PatroniCluster> {
  const etcdDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-etcd-'))
  const [etcdPort, peerPort] = [await freePort(), await freePort()]
  const etcdUrl = `http://127.0.0.1:${etcdPort}`
  const etcd = spawnLogged(
    ETCD,
    [
      ...['--name', 'cartage', '--data-dir', path.join(etcdDir, 'data')],
      ...['--listen-client-urls', etcdUrl, '--advertise-client-urls', etcdUrl],
      ...['--listen-peer-urls', `http://127.0.0.1:${peerPort}`],
      ...['--initial-advertise-peer-urls', `http://127.0.0.1:${peerPort}`],
      ...['--initial-cluster', `cartage=http://127.0.0.1:${peerPort}`],
    ],
    path.join(etcdDir, 'etcd.log'),
    false,
  )
  const running: Running[] = []
  const stop = async () => {
    for (const { child } of running) signalGroup(child, 'SIGTERM')
    for (const { child } of running) await exitOf(child, 15_000)
    for (const { child, dataDir } of running) {
      signalGroup(child, 'SIGKILL')
      const pid = postmasterPid(dataDir)
      try {
        if (pid) process.kill(pid, 'SIGKILL')
      } catch {}
    }
    signalGroup(etcd, 'SIGTERM')
    await exitOf(etcd, 5_000)
    signalGroup(etcd, 'SIGKILL')
    for (const { dir } of running) rmSync(dir, { recursive: true, force: true })
    rmSync(etcdDir, { recursive: true, force: true })
  }
  try {
    await until(
      async () =>
        ((await (await fetch(`${etcdUrl}/health`)).json()) as { health?: string }).health === 'true' ||
        undefined,
      20_000,
      `etcd healthy (see ${etcdDir}/etcd.log)`,
    )
    const startNode = async (name: string) => {
      const { bin, dir, asRoot } = await ownDirectory(`cartage-patroni-${name}-`)
      const [port, restPort] = [await freePort(), await freePort()]
      const dataDir = path.join(dir, 'data')
      // YAML is a superset of JSON.
      const config = {
        scope: 'cartage',
        name,
        restapi: { listen: `127.0.0.1:${restPort}`, connect_address: `127.0.0.1:${restPort}` },
        etcd3: { hosts: [`127.0.0.1:${etcdPort}`] },
        bootstrap: {
          dcs: {
            ...PATRONI_TIMING,
            maximum_lag_on_failover: 1048576,
            synchronous_mode: true,
            postgresql: {
              use_pg_rewind: false,
              parameters: {
                wal_level: 'replica',
                hot_standby: 'on',
                max_wal_senders: 5,
                max_replication_slots: 5,
              },
            },
          },
          initdb: [{ encoding: 'UTF8' }, { 'auth-local': 'trust' }, { 'auth-host': 'trust' }],
        },
        postgresql: {
          listen: `127.0.0.1:${port}`,
          connect_address: `127.0.0.1:${port}`,
          data_dir: dataDir,
          bin_dir: bin,
          pgpass: path.join(dir, 'pgpass'),
          authentication: { superuser: { username: 'postgres' }, replication: { username: 'postgres' } },
          // trust on the loopback is for the test only; use scram-sha-256 and passwords elsewhere.
          pg_hba: [
            'local all all trust',
            'host all all 127.0.0.1/32 trust',
            'host replication all 127.0.0.1/32 trust',
          ],
          parameters: { unix_socket_directories: dir, shared_buffers: '16MB', fsync: 'off' },
        },
      }
      const file = path.join(dir, 'patroni.yml')
      writeFileSync(file, JSON.stringify(config, null, 2))
      // The log is opened here and handed over, so the postgres user needs no right to it.
      const log = path.join(dir, 'patroni.log')
      const node: PatroniNode = {
        name,
        port,
        restPort,
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      }
      running.push({ node, dir, dataDir, child: spawnLogged(PATRONI, [file], log, asRoot) })
      return node
    }
    const role = async (node: PatroniNode, check: 'primary' | 'replica') =>
      (await fetch(`http://127.0.0.1:${node.restPort}/${check}`)).status === 200
    const first = await startNode('one')
    await until(async () => (await role(first, 'primary')) || undefined, 60_000, 'node one leads')
    await startNode('two')
    const cluster: PatroniCluster = {
      nodes: running.map((r) => r.node),
      leader: async () => {
        for (const { node, child } of running) {
          if (child.exitCode !== null || child.signalCode !== null) continue
          if (await role(node, 'primary').catch(() => false)) return node
        }
        return undefined
      },
      waitUntilSynchronous: (timeoutMs = 60_000) =>
        until(
          async () => {
            const leader = await cluster.leader()
            if (!leader) return undefined
            const client = new pg.Client({ connectionString: leader.url })
            await client.connect()
            try {
              const { rows } = await client.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM pg_stat_replication WHERE sync_state = 'sync' AND state = 'streaming'",
              )
              return rows[0]?.n ? leader : undefined
            } finally {
              await client.end()
            }
          },
          timeoutMs,
          'a leader with a streaming synchronous standby',
        ),
      kill: (node) => {
        const target = running.find((r) => r.node === node)
        if (!target) throw new Error(`no node ${node.name}`)
        signalGroup(target.child, 'SIGKILL')
        const pid = postmasterPid(target.dataDir)
        if (pid) process.kill(pid, 'SIGKILL')
      },
      stop,
    }
    await cluster.waitUntilSynchronous(120_000)
    return cluster
  } catch (error) {
    await stop()
    throw error
  }
}
