import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCartage } from '../../src/apps/cartage.js'
import { loadConfig } from '../../src/config.js'
import { createLogger } from '../../src/http/logging.js'
import { MemoryMailer } from '../../src/mail/mailer.js'
import {
  type Core,
  coreAs,
  type RegisteredOrganization,
  registerOrganization,
  signIn,
  type TestContext,
} from '../harness.js'
import { canRunHaproxy, startPostgresHaproxy } from './haproxy.js'
import { until } from './http.js'
import { canRunPatroni, type PatroniCluster, startPatroniCluster } from './patroni.js'

const onPostgres = process.env.CARTAGE_TEST_DATABASE === 'postgres'
const canRun = canRunPatroni && canRunHaproxy
if (onPostgres && !canRun)
  console.warn('failover test skipped: it needs the Debian packages patroni, etcd-server and haproxy')

/** The longest time without an acknowledged write this test accepts (Patroni's ttl is 10 s here). */
const OUTAGE_BOUND_MS = 60_000

// A primary and a synchronous standby under Patroni (etcd as its store), HAProxy routing to the
// leader by Patroni's REST check, and Cartage connected through HAProxy (docs/deployment.md):
// the primary killed under writes, the standby takes over, Cartage carries on by itself, and no
// acknowledged write is lost.
describe.runIf(onPostgres && canRun)('failover under Patroni with a synchronous standby', () => {
  let cluster: PatroniCluster
  let balancer: Awaited<ReturnType<typeof startPostgresHaproxy>>
  let ctx: TestContext
  let org: RegisteredOrganization
  let core: Core
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-failover-'))
  /** What Cartage logs as errors (an internal error's cause), to name it if one is answered. */
  let errorLog = ''
  const logger = createLogger(
    'error',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        errorLog += chunk.toString()
        done()
      },
    }),
  )

  beforeAll(async () => {
    cluster = await startPatroniCluster()
    balancer = await startPostgresHaproxy(cluster.nodes)
    const leader = await cluster.leader()
    await until(
      async () => {
        const states = await balancer.states()
        return cluster.nodes.every((n) => states[`postgres/${n.name}`] === (n === leader ? 'UP' : 'DOWN'))
      },
      20_000,
      'HAProxy routes to the leader only',
    )
    const config = {
      ...loadConfig({
        RATE_LIMIT_PER_IP: '100000',
        RATE_LIMIT_PER_ACCOUNT: '100000',
        DATABASE_URL: `postgres://postgres@127.0.0.1:${balancer.port}/postgres`,
      }),
      dataDir,
    }
    const mailer = new MemoryMailer()
    const cartage = await openCartage(config, { mailer, poolSize: 3, logger })
    ctx = { dataDir, mailer, ...cartage }
    org = await registerOrganization(ctx)
    const session = await signIn(ctx, org)
    core = coreAs(ctx, { accessToken: session.accessToken, businessId: org.businessId })
  }, 240_000)
  afterAll(async () => {
    await ctx?.close()
    await balancer?.stop()
    await cluster?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)

  it('loses no acknowledged write when the primary is killed under writes, and writes resume by themselves', async () => {
    const acknowledged: { id: string; sentAt: number; answeredAt: number }[] = []
    const refused: { status: number; code: unknown; retryAfter: unknown; sentAt: number; body: string }[] = []
    let stop = false
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const sentAt = Date.now()
        const answer = await core({
          method: 'POST',
          url: '/api/v1/customers',
          payload: { name: `Failover ${w}-${n}`, type: 'Company' },
        })
        if (answer.statusCode === 200)
          acknowledged.push({ id: answer.json().data.id, sentAt, answeredAt: Date.now() })
        else {
          refused.push({
            status: answer.statusCode,
            code: answer.json().code,
            retryAfter: answer.headers['retry-after'],
            sentAt,
            body: answer.body,
          })
          // As a client told Retry-After would, if more eagerly: try again soon.
          await new Promise((r) => setTimeout(r, 100))
        }
      }
    }
    const writers = Array.from({ length: 4 }, (_, w) => writer(w))
    try {
      await until(async () => acknowledged.length >= 20, 60_000, 'writes under way')
      const former = await cluster.leader()
      if (!former) throw new Error('no leader')
      const killedAt = Date.now()
      cluster.kill(former)
      await until(
        async () => acknowledged.filter((a) => a.sentAt > killedAt).length >= 20,
        OUTAGE_BOUND_MS + 30_000,
        'writes acknowledged again after the kill',
      )
      stop = true
      await Promise.all(writers)

      // The standby took over.
      const leader = await cluster.leader()
      expect(leader?.name).toBeDefined()
      expect(leader?.name).not.toBe(former.name)

      // Meanwhile Cartage refused writes as unavailable, never as an internal error.
      expect(refused.length).toBeGreaterThan(0)
      for (const answer of refused) {
        expect(answer.status, `${answer.body}\n${errorLog}`).toBe(503)
        expect(answer.code).toBe('database_unavailable')
        expect(Number(answer.retryAfter)).toBeGreaterThan(0)
      }

      // The time without writes: the longest gap between two acknowledgements.
      const answered = acknowledged.map((a) => a.answeredAt).sort((a, b) => a - b)
      let outage = 0
      for (let i = 1; i < answered.length; i++)
        outage = Math.max(outage, (answered[i] as number) - (answered[i - 1] as number))
      const firstAfter = Math.min(...acknowledged.filter((a) => a.sentAt > killedAt).map((a) => a.answeredAt))
      console.log(
        `failover: ${(outage / 1000).toFixed(1)} s without an acknowledged write; ` +
          `first write acknowledged ${((firstAfter - killedAt) / 1000).toFixed(1)} s after the kill; ` +
          `${acknowledged.length} writes acknowledged, ${refused.length} answered 503`,
      )
      expect(outage).toBeLessThan(OUTAGE_BOUND_MS)

      // Every acknowledged write is on the new primary, read there directly.
      const client = new pg.Client({ connectionString: leader?.url })
      await client.connect()
      try {
        const { rows: schemas } = await client.query<{ schema_name: string }>(
          `SELECT o.schema_name FROM global.businesses b
             JOIN global.organizations o ON o.id = b.organization_id WHERE b.id = $1`,
          [org.businessId],
        )
        const schema = schemas[0]?.schema_name as string
        const { rows } = await client.query<{ id: string }>(
          `SELECT id::text FROM ${client.escapeIdentifier(schema)}.customers WHERE id::text = ANY($1::text[])`,
          [acknowledged.map((a) => a.id)],
        )
        const present = new Set(rows.map((r) => r.id))
        expect(acknowledged.filter((a) => !present.has(a.id)).map((a) => a.id)).toEqual([])
      } finally {
        await client.end()
      }

      // Ready again, through HAProxy to the new primary.
      expect((await ctx.core.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200)
    } finally {
      stop = true
      await Promise.all(writers)
    }
  }, 240_000)
})
