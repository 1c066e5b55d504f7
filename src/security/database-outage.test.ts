import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKey } from '../../test/fixtures.js'
import { registerOrganization, signIn, type TestContext } from '../../test/harness.js'
import { canRunOwnPostgres, type OwnPostgres, startOwnPostgres } from '../../test/own-postgres.js'
import { openCartage } from '../apps/cartage.js'
import { loadConfig } from '../config.js'
import { MemoryMailer } from '../mail/mailer.js'

const onPostgres = process.env.CARTAGE_TEST_DATABASE === 'postgres'

// A PostgreSQL server of the test's own, stopped under signed-in users and started again.
describe.runIf(onPostgres && canRunOwnPostgres)('while the database is unreachable', () => {
  let server: OwnPostgres
  let ctx: TestContext
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-outage-'))
  beforeAll(async () => {
    server = await startOwnPostgres()
    const config = {
      ...loadConfig({ RATE_LIMIT_PER_IP: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' }),
      databaseUrl: server.url,
      dataDir,
    }
    const mailer = new MemoryMailer()
    const cartage = await openCartage(config, { mailer, poolSize: 3 })
    ctx = { dataDir, mailer, ...cartage }
  }, 180_000)
  afterAll(async () => {
    await server?.start().catch(() => {})
    await ctx?.close()
    await server?.destroy()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers 503 database_unavailable with Retry-After on every credential, and the session outlives it', async () => {
    const org = await registerOrganization(ctx)
    const session = await signIn(ctx, org)
    const apiKey = await createApiKey(ctx, session.accessToken, org.businessId)
    const bearer = { authorization: `Bearer ${session.accessToken}`, 'x-business-id': org.businessId }
    const customers = (headers: Record<string, string>) =>
      ctx.core.inject({ method: 'GET', url: '/api/v1/customers', headers })
    expect((await customers(bearer)).statusCode).toBe(200)
    expect((await customers({ 'x-dispatch-api-key': apiKey })).statusCode).toBe(200)

    await server.stop()
    const answers = {
      bearer: await customers(bearer),
      apiKey: await customers({ 'x-dispatch-api-key': apiKey }),
      me: await ctx.core.inject({
        method: 'GET',
        url: '/api/me',
        headers: { authorization: bearer.authorization },
      }),
      login: await ctx.global.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: org.email, password: org.password },
      }),
      renew: await ctx.global.inject({
        method: 'POST',
        url: '/api/auth/new-token',
        headers: { cookie: session.refreshCookie },
      }),
    }
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.statusCode, `${name}: ${answer.body}`).toBe(503)
      expect(answer.json().code, name).toBe('database_unavailable')
      expect(Number(answer.headers['retry-after']), name).toBeGreaterThan(0)
    }
    // The Global API says it as problem details.
    expect(answers.login.headers['content-type']).toContain('application/problem+json')
    // Ready says so too; live does not (the process is fine).
    expect((await ctx.core.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(503)
    expect((await ctx.core.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200)

    await server.start()
    // Back: the same access token and key work again, nobody had to sign in.
    let back = await customers(bearer)
    for (let tries = 0; back.statusCode === 503 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      back = await customers(bearer)
    }
    expect(back.statusCode).toBe(200)
    expect((await customers({ 'x-dispatch-api-key': apiKey })).statusCode).toBe(200)
  }, 120_000)

  // As a standby is in the moment Patroni has made it leader, before its promotion ends, when
  // HAProxy may already route to it (docs/deployment.md, high availability).
  it('answers a write that reaches a read-only server 503 database_unavailable, and takes it once writable', async () => {
    const org = await registerOrganization(ctx)
    const session = await signIn(ctx, org)
    const create = () =>
      ctx.core.inject({
        method: 'POST',
        url: '/api/v1/customers',
        headers: { authorization: `Bearer ${session.accessToken}`, 'x-business-id': org.businessId },
        payload: { name: 'Read-only moment', type: 'Company' },
      })
    const admin = new pg.Client({ connectionString: server.url })
    await admin.connect()
    const readOnly = async (on: boolean) => {
      await admin.query(`ALTER SYSTEM SET default_transaction_read_only = ${on ? 'on' : 'off'}`)
      await admin.query('SELECT pg_reload_conf()')
      // Each session takes the reloaded setting before its next statement.
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    try {
      await readOnly(true)
      const refused = await create()
      expect(refused.statusCode, refused.body).toBe(503)
      expect(refused.json().code).toBe('database_unavailable')
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      await readOnly(false)
      const created = await create()
      expect(created.statusCode, created.body).toBe(200)
    } finally {
      await admin.query('ALTER SYSTEM RESET default_transaction_read_only').catch(() => {})
      await admin.query('SELECT pg_reload_conf()').catch(() => {})
      await admin.end()
    }
  }, 60_000)
})
