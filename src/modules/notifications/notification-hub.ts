import pg from 'pg'
import type { Database } from '../../db/database.js'
import { NOTIFICATION_CHANNEL } from './notifications.repository.js'

/** One open stream: woken when its business may have new notifications. */
export interface StreamSubscriber {
  businessId: string
  wake(): void
}

/** Fallback poll (ms): the only signal on the embedded database, a safety net on PostgreSQL. */
const POLL_EMBEDDED_MS = 1_000
const POLL_POSTGRES_MS = 10_000

/**
 * Wakes the streams of this process when notifications are created, in this process or another.
 * On PostgreSQL one dedicated connection LISTENs (NOTIFY arrives only after the creating
 * transaction committed, so the rows are visible); the embedded database has one connection and
 * one process, so streams poll instead. Started with the first stream, stopped with the app.
 */
export class NotificationHub {
  private readonly subscribers = new Set<StreamSubscriber>()
  private listener: pg.Client | undefined
  private timer: NodeJS.Timeout | undefined
  private starting: Promise<void> | undefined

  constructor(private readonly database: Database) {}

  async subscribe(subscriber: StreamSubscriber) {
    this.subscribers.add(subscriber)
    this.starting ??= this.start()
    await this.starting
  }

  unsubscribe(subscriber: StreamSubscriber) {
    this.subscribers.delete(subscriber)
  }

  private async start() {
    const postgres = this.database.kind === 'postgres'
    this.timer = setInterval(() => this.wakeAll(), postgres ? POLL_POSTGRES_MS : POLL_EMBEDDED_MS)
    this.timer.unref()
    if (!postgres) return
    const client = new pg.Client({ ...this.database.pool.options, application_name: 'cartage-notifications' })
    client.on('error', () => {
      // The poll keeps streams alive; the next stream start reconnects.
      this.listener = undefined
      this.starting = undefined
    })
    client.on('notification', (message) => {
      try {
        const { businessId } = JSON.parse(message.payload ?? '{}') as { businessId?: string }
        for (const subscriber of this.subscribers) if (subscriber.businessId === businessId) subscriber.wake()
      } catch {
        this.wakeAll()
      }
    })
    await client.connect()
    await client.query(`LISTEN ${NOTIFICATION_CHANNEL}`)
    this.listener = client
  }

  private wakeAll() {
    for (const subscriber of this.subscribers) subscriber.wake()
  }

  async close() {
    clearInterval(this.timer)
    this.subscribers.clear()
    await this.listener?.end().catch(() => {})
    this.listener = undefined
  }
}
