import { ChangeListener } from '../../db/change-listener.js'
import type { Database } from '../../db/database.js'
import { NOTIFICATION_CHANNEL } from './notifications.repository.js'

/** One open stream: woken when its business may have new notifications, ended at shutdown. */
export interface StreamSubscriber {
  businessId: string
  wake(): void
  /** Tells the client the server is going away, then ends the stream. */
  end(): void
}

/** While the notice feed is down, streams read this often instead (ms). */
const POLL_WHILE_DOWN_MS = 1_000

/**
 * Wakes the streams of this process when notifications are created, in this process or another,
 * from PostgreSQL's NOTIFY (sent on commit, so the rows are visible): one dedicated listening
 * connection on PostgreSQL, the pool's one connection on the embedded database. An idle stream
 * therefore costs nothing: no stream reads until its business has something new. The feed
 * reconnects by itself after the database comes back and then wakes every stream once (what was
 * created meanwhile was never announced); while it is down the streams poll.
 */
export class NotificationHub {
  private readonly subscribers = new Set<StreamSubscriber>()
  /** One feed per cluster: a NOTIFY is heard only on the server whose transaction sent it. Made at the first stream. */
  private feeds: ChangeListener[] = []
  private timer: NodeJS.Timeout | undefined

  // Nothing of the database is touched here: the apps are also built without one (for their
  // OpenAPI documents), and a process that never opens a stream holds no listening connection.
  constructor(
    private readonly database: Pick<Database, 'kind' | 'pool' | 'atClose'> &
      Partial<Pick<Database, 'clusters'>>,
  ) {}

  private openFeeds(): ChangeListener[] {
    if (this.feeds.length > 0) return this.feeds
    const { database } = this
    const clusters = database.clusters
    this.feeds = clusters
      ? clusters.names.map(
          (name) =>
            new ChangeListener(
              {
                kind: database.kind,
                pool: clusters.pools.get(name) as Database['pool'],
                atClose: database.atClose,
              },
              NOTIFICATION_CHANNEL,
              { listenOnPool: false },
            ),
        )
      : [new ChangeListener(database, NOTIFICATION_CHANNEL, { listenOnPool: false })]
    for (const feed of this.feeds) feed.subscribe((payload) => this.notified(payload))
    return this.feeds
  }

  subscribe(subscriber: StreamSubscriber) {
    this.subscribers.add(subscriber)
    for (const feed of this.openFeeds()) feed.start()
    if (this.timer) return
    this.timer = setInterval(() => {
      if (this.feeds.some((feed) => !feed.live)) this.wakeAll()
    }, POLL_WHILE_DOWN_MS)
    this.timer.unref()
  }

  unsubscribe(subscriber: StreamSubscriber) {
    this.subscribers.delete(subscriber)
  }

  /** Shutdown begins: every stream is told and ended, so the server's close does not wait on them. */
  endStreams() {
    for (const subscriber of [...this.subscribers]) subscriber.end()
    this.subscribers.clear()
  }

  private notified(payload: string | undefined) {
    // No payload: the feed dropped or came back, and anything may have been created meanwhile.
    if (payload === undefined) return this.wakeAll()
    let businessId: unknown
    try {
      businessId = (JSON.parse(payload) as { businessId?: unknown }).businessId
    } catch {
      return this.wakeAll()
    }
    for (const subscriber of this.subscribers) if (subscriber.businessId === businessId) subscriber.wake()
  }

  private wakeAll() {
    for (const subscriber of this.subscribers) subscriber.wake()
  }

  async close() {
    clearInterval(this.timer)
    this.endStreams()
    await Promise.all(this.feeds.map((feed) => feed.close()))
  }
}
