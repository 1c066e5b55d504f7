import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PROCESS_TEST_TIMEOUT_MS,
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerProcess,
  useServerDataDir,
} from '../server-process.js'
import { testDatabaseUrl } from '../test-database.js'
import { call, type Owner, registerOwner } from './http.js'
import { canRunPgBouncer, type PgBouncer, startPgBouncer } from './pgbouncer.js'

// Cartage through PgBouncer in transaction mode (docs/deployment.md): the built-in behaviours that
// lean on session state (prepared statements, the audit actor, LISTEN, the migration lock) work
// when every transaction may land on another server session.
const databaseUrl = testDatabaseUrl()

describe.skipIf(!databaseUrl || !canRunPgBouncer)('through PgBouncer in transaction mode', () => {
  const dataDir = useServerDataDir('cartage-pgbouncer-')
  let bouncer: PgBouncer
  let server: ServerProcess
  let owner: Owner
  const core = (
    method: string,
    url: string,
    body?: unknown,
    extra: { apiKey?: string; idempotencyKey?: string } = {},
  ) =>
    call(server.core, method, url, {
      ...(extra.apiKey
        ? { apiKey: extra.apiKey }
        : { bearer: owner.accessToken, businessId: owner.businessId }),
      ...(extra.idempotencyKey ? { idempotencyKey: extra.idempotencyKey } : {}),
      body,
    })

  beforeAll(async () => {
    // Three server sessions for ten client connections: consecutive transactions of one client
    // connection land on different sessions all the time.
    bouncer = await startPgBouncer(databaseUrl as string, 3)
    server = await startServerProcess(
      serverEnv({
        dataDir: dataDir.path,
        databaseUrl: bouncer.url,
        vars: {
          RATE_LIMIT_PER_IP: '100000',
          DATABASE_POOL_MODE: 'transaction',
          DATABASE_DIRECT_URL: databaseUrl as string,
          DB_POOL_SIZE: '10',
        },
      }),
    )
    owner = await registerOwner(server.global, 'bouncer')
  }, PROCESS_TEST_TIMEOUT_MS)
  afterAll(async () => {
    await stopServerProcess(server)
    await bouncer?.stop()
  })

  it('creates, reads, updates and lists customers in parallel, each change audited as its own request', async () => {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => core('POST', '/api/v1/Customers', { name: `Bouncer ${i}` })),
    )
    expect(created.map((answer) => answer.status)).toEqual(created.map(() => 200))
    const ids = created.map((answer) => (answer.body.data as { id: string }).id)
    // Reads by id go through the fixed-shape statements (prepared by name on a direct connection).
    const read = await Promise.all(ids.map((id) => core('GET', `/api/v1/Customers/${id}`)))
    expect(read.map((answer) => (answer.body.data as { name: string }).name)).toEqual(
      ids.map((_, i) => `Bouncer ${i}`),
    )
    const renamed = await core('PUT', `/api/v1/Customers/${ids[0]}`, { name: 'Bouncer renamed' })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    const listed = await core('GET', '/api/v1/Customers')
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(listed.body.totalCount).toBe(20)

    const audit = await core(
      'GET',
      `/api/v1/audit-log?entityType=Customer&entityId=${ids[0]}&$orderby=occurredAt asc`,
    )
    const entries = audit.body.data as {
      action: string
      actorType: string
      actorId: string
      requestId: string
    }[]
    expect(entries.map((e) => [e.action, e.actorType, e.actorId])).toEqual([
      ['Created', 'User', owner.userId],
      ['Updated', 'User', owner.userId],
    ])
    expect(entries[1]?.requestId).toBe(renamed.headers.get('x-request-id'))
  })

  it('stops a revoked API key at once, and replays an idempotent request', async () => {
    const created = await call(server.global, 'POST', '/api/auth/tokens', {
      bearer: owner.accessToken,
      body: { businessId: owner.businessId },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const apiKey = (created.body.data as { token: string }).token
    expect((await core('GET', '/api/v1/Customers', undefined, { apiKey })).status).toBe(200)
    // Cached now: the revocation must still reach this process before its next answer.
    expect((await core('GET', '/api/v1/Customers', undefined, { apiKey })).status).toBe(200)
    const keys = await call(server.global, 'GET', '/api/auth/tokens', { bearer: owner.accessToken })
    const keyId = (keys.body.data as { id: string }[])[0]?.id
    const revoked = await call(server.global, 'DELETE', `/api/auth/tokens/${keyId}`, {
      bearer: owner.accessToken,
    })
    expect(revoked.status).toBe(200)
    expect((await core('GET', '/api/v1/Customers', undefined, { apiKey })).status).toBe(401)

    const idempotencyKey = randomUUID()
    const first = await core('POST', '/api/v1/Customers', { name: 'Once' }, { idempotencyKey })
    const again = await core('POST', '/api/v1/Customers', { name: 'Once' }, { idempotencyKey })
    expect(again.status).toBe(200)
    expect((again.body.data as { id: string }).id).toBe((first.body.data as { id: string }).id)
  })

  it('runs the SQL console, and listens on the direct connection only', async () => {
    const answer = await core('POST', '/api/ai-studio/query', {
      query: "SELECT count(*) AS n FROM customers WHERE name LIKE 'Bouncer%'",
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect((answer.body.data as { rows: unknown[][] }).rows).toEqual([[20]])
    const direct = new pg.Client({ connectionString: databaseUrl })
    await direct.connect()
    try {
      // The process's one listening session is its own connection straight to PostgreSQL; the
      // sessions PgBouncer lends it never ran LISTEN.
      const { rows } = await direct.query<{ name: string; query: string }>(
        `SELECT application_name AS name, query FROM pg_stat_activity
          WHERE datname = current_database() AND application_name LIKE 'cartage%'`,
      )
      // (Other test files' processes share this database and have listeners of their own.)
      expect(rows.filter((row) => row.name.endsWith('-listener')).map((row) => row.name)).toContain(
        'cartage-both-listener',
      )
      // Only this process's sessions count: another file's process listens on its own pool, as it may.
      const lent = rows.filter(
        (row) => row.name.startsWith('cartage-both') && !row.name.endsWith('-listener'),
      )
      expect(lent.filter((row) => /^\s*listen/i.test(row.query))).toEqual([])
    } finally {
      await direct.end()
    }
  })
})
