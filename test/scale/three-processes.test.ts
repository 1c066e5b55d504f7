import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../own-postgres.js'
import {
  PROCESS_TEST_TIMEOUT_MS,
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerProcess,
  useServerDataDir,
} from '../server-process.js'
import { testDatabaseUrl } from '../test-database.js'
import { canRunHaproxy, type Haproxy, startHaproxy } from './haproxy.js'
import { call, type Owner, registerOwner, until } from './http.js'

// Three `cartage serve` processes on one PostgreSQL behind HAProxy (docs/deployment.md): what one
// process guarantees holds across the three, and losing one to kill -9 loses nothing acknowledged.
const databaseUrl = testDatabaseUrl()

/** What every process of an installation shares: the keys a single process would generate for itself. */
const sharedKeys = () => ({
  JWT_PRIVATE_KEY: generateKeyPairSync('ed25519')
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
  WEBHOOKS_SECRETS_KEY: randomBytes(32).toString('hex'),
  CARRIER_CREDENTIALS_KEY: randomBytes(32).toString('hex'),
})

/**
 * How long a change made on one process may take to be seen on another here: at once or within the
 * second the contract allows on an idle machine, given more because a shared test machine can take
 * longer than that to answer one request.
 */
const SPREAD_MS = 5_000

describe.skipIf(!databaseUrl || !canRunHaproxy)('three processes behind HAProxy', () => {
  const keys = sharedKeys()
  const nodes: {
    name: string
    corePort: number
    globalPort: number
    dataDir: { path: string }
    server?: ServerProcess
  }[] = []
  // Brand-new directories: the database is PostgreSQL, the directory holds only what a process keeps locally.
  const dataDirs = ['one', 'two', 'three'].map(
    (name) => [name, useServerDataDir(`cartage-node-${name}-`, { fresh: true })] as const,
  )
  let balancer: Haproxy
  let owner: Owner
  const start = (node: (typeof nodes)[number]) =>
    startServerProcess(
      serverEnv({
        dataDir: node.dataDir.path,
        databaseUrl,
        vars: {
          ...keys,
          CORE_PORT: String(node.corePort),
          GLOBAL_PORT: String(node.globalPort),
          DB_POOL_SIZE: '4',
          RATE_LIMIT_PER_IP: '100000',
          RATE_LIMIT_PER_ACCOUNT: '3',
          WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOKS_POLL_INTERVAL_MS: '100',
        },
      }),
    )
  const core = (base: string, method: string, url: string, body?: unknown, idempotencyKey?: string) =>
    call(base, method, url, {
      bearer: owner.accessToken,
      businessId: owner.businessId,
      body,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    })
  const coreOf = (i: number) => nodes[i]?.server?.core as string
  const globalOf = (i: number) => nodes[i]?.server?.global as string

  beforeAll(async () => {
    for (const [name, dataDir] of dataDirs)
      nodes.push({ name, corePort: await freePort(), globalPort: await freePort(), dataDir })
    // The first migrates alone; the others find the database migrated.
    const [first, ...rest] = nodes as [(typeof nodes)[number], ...typeof nodes]
    first.server = await start(first)
    await Promise.all(
      rest.map(async (node) => {
        node.server = await start(node)
      }),
    )
    balancer = await startHaproxy(nodes)
    await until(
      async () => Object.values(await balancer.states()).every((state) => state === 'UP'),
      20_000,
      'every server UP',
    )
  }, 2 * PROCESS_TEST_TIMEOUT_MS)
  afterAll(async () => {
    await balancer?.stop()
    // Their directories go after this (useServerDataDir's hook, registered earlier, runs later).
    await Promise.all(nodes.map((node) => stopServerProcess(node.server)))
  }, PROCESS_TEST_TIMEOUT_MS)

  it('shares sessions, their end, API keys and their revocation, login throttling and idempotency keys', async () => {
    owner = await registerOwner(balancer.global, 'three')
    // A session from the balancer works on every process.
    for (let i = 0; i < 3; i++) expect((await core(coreOf(i), 'GET', '/api/me')).status).toBe(200)

    // An API key made on one process works on the others until it is revoked on a third.
    const made = await call(globalOf(0), 'POST', '/api/auth/tokens', {
      bearer: owner.accessToken,
      body: { businessId: owner.businessId },
    })
    const apiKey = (made.body.data as { token: string }).token
    for (let i = 0; i < 3; i++)
      expect((await call(coreOf(i), 'GET', '/api/v1/Customers', { apiKey })).status).toBe(200)
    const listed = await call(globalOf(1), 'GET', '/api/auth/tokens', { bearer: owner.accessToken })
    const keyId = (listed.body.data as { id: string }[])[0]?.id
    expect(
      (await call(globalOf(2), 'DELETE', `/api/auth/tokens/${keyId}`, { bearer: owner.accessToken })).status,
    ).toBe(200)
    for (let i = 0; i < 3; i++)
      await until(
        async () => (await call(coreOf(i), 'GET', '/api/v1/Customers', { apiKey })).status === 401,
        SPREAD_MS,
        `revoked key refused by process ${i + 1}`,
      )

    // The same idempotency key on two processes: the second answer is the first's replay.
    const idempotencyKey = randomUUID()
    const first = await core(coreOf(0), 'POST', '/api/v1/Customers', { name: 'Once only' }, idempotencyKey)
    const again = await core(coreOf(1), 'POST', '/api/v1/Customers', { name: 'Once only' }, idempotencyKey)
    expect(first.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((again.body.data as { id: string }).id).toBe((first.body.data as { id: string }).id)

    // Three wrong passwords, one on each process: the pair is blocked on any of them.
    for (let i = 0; i < 3; i++) {
      const wrong = await call(globalOf(i), 'POST', '/api/auth/login', {
        body: { email: owner.email, password: 'guess-wrong-password' },
      })
      expect(wrong.status).toBe(401)
    }
    const blocked = await call(globalOf(0), 'POST', '/api/auth/login', {
      body: { email: owner.email, password: owner.password },
    })
    expect(blocked.status).toBe(429)

    // The SQL console answers on each.
    for (let i = 0; i < 3; i++) {
      const answer = await core(coreOf(i), 'POST', '/api/ai-studio/query', {
        query: 'SELECT count(*) AS n FROM customers',
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    }

    // Logging out on one process ends the session on all three within a second.
    const out = await call(globalOf(1), 'POST', '/api/auth/logout', { bearer: owner.accessToken })
    expect(out.status).toBe(200)
    for (let i = 0; i < 3; i++)
      await until(
        async () => (await core(coreOf(i), 'GET', '/api/me')).status === 401,
        SPREAD_MS,
        `logout on ${i + 1}`,
      )
  })

  it('delivers each webhook once, whichever of the three workers claims it', async () => {
    owner = await registerOwner(balancer.global, 'three-hooks')
    const received: string[] = []
    const receiver = createServer((request, response) => {
      received.push(String(request.headers['webhook-id']))
      request.resume()
      request.on('end', () => response.end('ok'))
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = receiver.address() as { port: number }
      const endpoint = await core(balancer.core, 'POST', '/api/v1/webhooks/endpoints', {
        url: `http://127.0.0.1:${port}/hooks`,
        eventTypes: ['order.created'],
      })
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200)
      const customer = await core(balancer.core, 'POST', '/api/v1/Customers', { name: 'Hooked' })
      const customerId = (customer.body.data as { id: string }).id
      // Orders made through the balancer, so on all three processes.
      for (let i = 0; i < 9; i++) {
        const order = await core(balancer.core, 'POST', '/api/v1/orders', {
          customerId,
          lines: [{ description: 'Widget', quantity: 1, unitPrice: 10 }],
        })
        expect(order.status, JSON.stringify(order.body)).toBe(200)
      }
      await until(async () => new Set(received).size >= 9, 30_000, 'nine deliveries')
      // Three workers poll every 100 ms: a second more gives any duplicate time to arrive.
      await new Promise((r) => setTimeout(r, 1_000))
      expect(received).toHaveLength(9)
      expect(new Set(received).size).toBe(9)
    } finally {
      receiver.close()
    }
  })

  it(
    'loses nothing acknowledged when one process is killed under load; HAProxy takes it out and back',
    async () => {
      owner = await registerOwner(balancer.global, 'three-load')
      const acknowledged: string[] = []
      const failed: number[] = []
      let stop = false
      let killedAt = 0
      const worker = async (w: number) => {
        for (let n = 0; !stop; n++) {
          const write = n % 2 === 0
          const answer = await (write
            ? core(balancer.core, 'POST', '/api/v1/Customers', { name: `Load ${w}-${n}` })
            : core(balancer.core, 'GET', '/api/v1/Customers')
          ).catch(() => ({ status: 0, body: {} as { data?: unknown } }))
          if (answer.status === 200 && write) acknowledged.push((answer.body.data as { id: string }).id)
          else if (answer.status !== 200) failed.push(Date.now() - killedAt)
        }
      }
      const workers = Array.from({ length: 6 }, (_, w) => worker(w))
      await until(async () => acknowledged.length >= 30, 60_000, 'load under way')
      const victim = nodes[2] as (typeof nodes)[number]
      killedAt = Date.now()
      victim.server?.child.kill('SIGKILL')
      await victim.server?.exited
      await until(async () => (await balancer.states())['core/three'] === 'DOWN', 10_000, 'three DOWN')
      const before = acknowledged.length
      await until(async () => acknowledged.length >= before + 30, 60_000, 'load goes on without three')
      stop = true
      await Promise.all(workers)

      // Only requests in flight on the killed process failed: at most one per worker.
      expect(failed.length).toBeLessThanOrEqual(6)
      // Every acknowledged write is there.
      const ids = new Set<string>()
      for (let page = 1; ; page++) {
        const list = await core(balancer.core, 'GET', `/api/v1/Customers?pageSize=100&page=${page}`)
        for (const c of list.body.data as { id: string }[]) ids.add(c.id)
        if (!list.body.hasMore) break
      }
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([])

      // Started again on its ports, it is checked back in and served.
      victim.server = await start(victim)
      await until(async () => (await balancer.states())['core/three'] === 'UP', 30_000, 'three UP again')
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => core(balancer.core, 'GET', '/api/me')),
      )
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
    },
    2 * PROCESS_TEST_TIMEOUT_MS,
  )
})
