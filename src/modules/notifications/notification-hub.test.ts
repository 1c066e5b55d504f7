import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { canRunOwnPostgres, type OwnPostgres, startOwnPostgres } from '../../../test/own-postgres.js'
import { NotificationHub } from './notification-hub.js'
import { NOTIFICATION_CHANNEL } from './notifications.repository.js'

const onPostgres = process.env.CARTAGE_TEST_DATABASE === 'postgres'

// A PostgreSQL server of the test's own, stopped and started again under an open stream.
describe.runIf(onPostgres && canRunOwnPostgres)('notification hub when PostgreSQL restarts', () => {
  let server: OwnPostgres
  let pool: pg.Pool
  let hub: NotificationHub
  beforeAll(async () => {
    server = await startOwnPostgres()
    pool = new pg.Pool({ connectionString: server.url, max: 2 })
    pool.on('error', () => {})
    hub = new NotificationHub({ kind: 'postgres', pool, atClose: () => {} })
  }, 120_000)
  afterAll(async () => {
    await hub?.close()
    await pool?.end().catch(() => {})
    await server?.destroy()
  })

  const notify = async (businessId: string) => {
    const client = new pg.Client({ connectionString: server.url })
    await client.connect()
    try {
      await client.query('SELECT pg_notify($1, $2)', [NOTIFICATION_CHANNEL, JSON.stringify({ businessId })])
    } finally {
      await client.end()
    }
  }

  /** Until the server shows a connection listening for notifications, idle. */
  const untilListening = async (ms: number) => {
    const deadline = Date.now() + ms
    for (;;) {
      const client = new pg.Client({ connectionString: server.url })
      const listening = await client
        .connect()
        .then(() =>
          client.query(
            "SELECT 1 FROM pg_stat_activity WHERE state = 'idle' AND query ILIKE 'LISTEN%cartage_notifications%'",
          ),
        )
        .then((result) => result.rowCount === 1)
        .catch(() => false)
        .finally(() => client.end().catch(() => {}))
      if (listening) return
      if (Date.now() > deadline) throw new Error('nothing listens for notifications')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  /** Sends the notice again every 100 ms until `delivered` holds (a notice sent before LISTEN is lost). */
  const notifyUntil = async (businessId: string, delivered: () => boolean, ms: number) => {
    const deadline = Date.now() + ms
    while (!delivered()) {
      if (Date.now() > deadline) throw new Error(`no notification reached the stream of ${businessId}`)
      await notify(businessId).catch(() => {})
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  it('listens again by itself and delivers to the streams already open', async () => {
    const woken = { a: 0, b: 0 }
    hub.subscribe({ businessId: 'a', wake: () => woken.a++, end: () => {} })
    hub.subscribe({ businessId: 'b', wake: () => woken.b++, end: () => {} })
    await notifyUntil('a', () => woken.a > 0, 10_000)
    // The first LISTEN wakes every stream once: a notice committed while it was on its way was not heard.
    await untilListening(10_000)
    await vi.waitFor(() => expect(woken.b).toBeGreaterThan(0), { timeout: 5_000 })

    const beforeStop = { ...woken }
    await server.stop()
    await server.start()
    // Back: LISTEN is in force again without any new stream being opened...
    await untilListening(10_000)
    // ...and every open stream was woken to catch up on what was created while the feed was down.
    expect(woken.a).toBeGreaterThan(beforeStop.a)
    expect(woken.b).toBeGreaterThan(beforeStop.b)
    await notifyUntil('a', () => woken.a > beforeStop.a + 1, 5_000)
    // Listening: a notice reaches its own business only (a poll would wake every stream).
    const listening = { ...woken }
    await notifyUntil('a', () => woken.a > listening.a, 2_000)
    expect(woken.b).toBe(listening.b)
  }, 120_000)
})
