import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCartage } from '../../src/apps/cartage.js'
import { loadConfig } from '../../src/config.js'
import type { ReadReplica } from '../../src/db/read-replica.js'
import { MemoryMailer } from '../../src/mail/mailer.js'
import { type Core, coreAs, registerOrganization, signIn, type TestContext } from '../harness.js'
import { canRunOwnPostgres, type OwnPostgres, startOwnPostgres, startOwnReplica } from '../own-postgres.js'

const onPostgres = process.env.CARTAGE_TEST_DATABASE === 'postgres'

// A primary and a streaming replica of the test's own (pg_basebackup -R, as docs/deployment.md
// says), DATABASE_READ_URL set: the SQL console and the dashboard read from the replica, a write is
// seen by the next read whatever the replica's state, and a lagging replica is left out.
describe.runIf(onPostgres && canRunOwnPostgres)('a read replica (DATABASE_READ_URL)', () => {
  let primary: OwnPostgres
  let replica: OwnPostgres
  let onReplica: pg.Client
  let ctx: TestContext
  let readReplica: ReadReplica
  let core: Core
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-replica-'))

  beforeAll(async () => {
    primary = await startOwnPostgres()
    replica = await startOwnReplica(primary)
    onReplica = new pg.Client({ connectionString: replica.url })
    // The last test stops the replica under this connection.
    onReplica.on('error', () => {})
    await onReplica.connect()
    const config = {
      ...loadConfig({
        RATE_LIMIT_PER_IP: '100000',
        METRICS_ENABLED: 'true',
        DATABASE_URL: primary.url,
        DATABASE_READ_URL: replica.url,
        READ_REPLICA_MAX_LAG_SECONDS: '1',
      }),
      dataDir,
    }
    const mailer = new MemoryMailer()
    const cartage = await openCartage(config, { mailer, poolSize: 3 })
    ctx = { dataDir, mailer, ...cartage }
    readReplica = ctx.database.readReplica as ReadReplica
    const org = await registerOrganization(ctx)
    const session = await signIn(ctx, org)
    core = coreAs(ctx, { accessToken: session.accessToken, businessId: org.businessId })
  }, 180_000)
  afterAll(async () => {
    await onReplica?.end().catch(() => {})
    await ctx?.close()
    await replica?.destroy()
    await primary?.destroy()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const addCustomer = async (name: string) => {
    const created = await core({
      method: 'POST',
      url: '/api/v1/customers',
      payload: { name, type: 'Company' },
    })
    expect(created.statusCode, created.body).toBe(200)
  }
  const countCustomers = async () => {
    const answer = await core({
      method: 'POST',
      url: '/api/ai-studio/query',
      payload: { query: 'SELECT count(*) AS n FROM customers' },
    })
    expect(answer.statusCode, answer.body).toBe(200)
    return Number(answer.json().data.rows[0][0])
  }
  /** Transactions the replica's own server ended: a console query ends its read-only one with ROLLBACK. */
  const replicaRollbacks = async () => {
    const { rows } = await onReplica.query<{ n: string }>(
      'SELECT xact_rollback::text AS n FROM pg_stat_database WHERE datname = current_database()',
    )
    return Number(rows[0]?.n)
  }
  const metric = async (name: string) => {
    const text = (await ctx.core.inject({ url: '/metrics' })).body
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
    return line === undefined ? undefined : Number(line.split(' ').at(-1))
  }
  const until = async (what: string, ok: () => Promise<boolean>) => {
    const deadline = Date.now() + 20_000
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within 20 s`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  it('serves the console and the dashboard from the replica, and reads a write made just before', async () => {
    await until('the replica checked fit', async () => {
      await readReplica.check()
      return readReplica.status().available
    })
    expect(await metric('cartage_read_replica_available')).toBe(1)
    const before = readReplica.status().reads
    const rollbacksBefore = await replicaRollbacks()

    await addCustomer('Written just before')
    expect(await countCustomers()).toBe(1)
    const summary = await core({ url: '/api/v1/insights/dashboard/summary' })
    expect(summary.statusCode, summary.body).toBe(200)

    const after = readReplica.status().reads
    expect(after.replica - before.replica).toBe(2)
    expect(after.primary).toBe(before.primary)
    // The replica's own server ran the console's transaction.
    await until(
      'the replica counted the transaction',
      async () => (await replicaRollbacks()) > rollbacksBefore,
    )
    expect(await metric('cartage_read_replica_lag_bytes')).toBeGreaterThanOrEqual(0)
  })

  it('reads from the primary while the replica has not replayed a write, and leaves a lagging replica out until it catches up', async () => {
    await onReplica.query('SELECT pg_wal_replay_pause()')
    try {
      const before = readReplica.status().reads
      await addCustomer('Not yet on the replica')
      // The replica cannot show the write: this read goes to the primary, and sees it.
      expect(await countCustomers()).toBe(2)
      expect(readReplica.status().reads.primary - before.primary).toBe(1)
      // Its lag grows past READ_REPLICA_MAX_LAG_SECONDS (1 s): left out, and /metrics says so.
      await until('the replica left out', async () => {
        await readReplica.check()
        return !readReplica.status().available
      })
      expect(readReplica.status().reason).toMatch(/replay lag .* is over 1 s/)
      expect(await metric('cartage_read_replica_available')).toBe(0)
      expect(await metric('cartage_read_replica_lag_seconds')).toBeGreaterThan(1)
      expect(await metric('cartage_read_replica_lag_bytes')).toBeGreaterThan(0)
      const summary = await core({ url: '/api/v1/insights/dashboard/summary' })
      expect(summary.statusCode).toBe(200)
      expect(readReplica.status().reads.replica).toBe(before.replica)
    } finally {
      await onReplica.query('SELECT pg_wal_replay_resume()')
    }
    await until('the replica back in', async () => {
      await readReplica.check()
      return readReplica.status().available
    })
    const before = readReplica.status().reads
    expect(await countCustomers()).toBe(2)
    expect(readReplica.status().reads.replica - before.replica).toBe(1)
  })

  it('leaves out a replica that stops answering, and the reads go on on the primary', async () => {
    await replica.stop()
    try {
      await until('the stopped replica left out', async () => {
        await readReplica.check()
        return !readReplica.status().available
      })
      expect(readReplica.status().reason).toMatch(/^unreachable/)
      expect(await countCustomers()).toBe(2)
      expect(await metric('cartage_read_replica_lag_seconds')).toBeNaN()
    } finally {
      await replica.start()
    }
  })
})
