import pg from 'pg'
import type { Database } from './database.js'
import { openClientsOf } from './lane-pool.js'

/** Reconnecting after a drop: the first try soon, then doubling up to the cap (a second). */
const RECONNECT_FIRST_MS = 100
const RECONNECT_MAX_MS = 1_000

export interface ChangeListenerOptions {
  /**
   * Whether each pool connection LISTENs too. Caches want it (a process's own change reaches them
   * before the writer's `await` returns); a consumer that only needs to hear changes once (the
   * notification streams) listens on the dedicated connection alone on PostgreSQL. The embedded
   * database's one pool connection is always its listener.
   */
  listenOnPool?: boolean
}

/**
 * A PostgreSQL notification channel as a signal to this process's caches. A cache may only be
 * trusted while `live` (LISTEN is in force on a connection that is up); whenever the connection
 * drops, subscribers are told to forget everything, and nothing is trusted again until LISTEN has
 * succeeded on a new connection. `generation` changes on every notification and every drop, so a
 * lookup that raced with a change can tell and not store its (possibly stale) answer.
 *
 * Every connection of the process's pool listens too: PostgreSQL hands a session its own
 * notifications in the reply to the committing statement, so a change this process makes reaches
 * its caches before the writer's `await` returns (in-process invalidation, never a race). Other
 * processes hear it on their own listening connection (on PostgreSQL a dedicated one). The
 * embedded database is one connection in one process: that connection is the listener.
 */
export class ChangeListener {
  live = false
  generation = 0
  private readonly subscribers: ((payload?: string) => void)[] = []
  private started = false
  private closed = false
  private client: pg.Client | undefined
  private retry: NodeJS.Timeout | undefined
  private readonly attached = new WeakSet<pg.PoolClient>()
  /** What `close` takes off the pool's connections, which outlive this listener when the database is shared. */
  private readonly detachers: (() => void)[] = []
  private readonly onPoolConnect = (client: pg.PoolClient) => this.attach(client)

  private listeningOnPool = false
  private reconnectDelay = RECONNECT_FIRST_MS
  /**
   * Set by a drop, and from the start: the next successful LISTEN tells subscribers again. Before
   * the first LISTEN is in force nothing was heard either (a stream opened as the feed starts
   * would otherwise miss a change committed while LISTEN was on its way).
   */
  private missed = true

  /** Transaction pool mode: writes this process completed, and how many of them the listener has caught up with. */
  private writes = 0
  private syncedWrites = 0
  private syncing: Promise<boolean> | undefined
  private turn: Promise<void> | undefined

  constructor(
    private readonly database: Pick<Database, 'kind' | 'pool' | 'atClose'> &
      Partial<Pick<Database, 'poolMode' | 'directConnection'>>,
    private readonly channel: string,
    private readonly options: ChangeListenerOptions = {},
  ) {}

  /** `onChange` gets the notice's payload, or nothing when the connection dropped (anything may have changed). */
  subscribe(onChange: (payload?: string) => void): void {
    this.subscribers.push(onChange)
  }

  /** Idempotent; callers start it on first use, so processes that never need it hold no connection. */
  start(): void {
    if (this.started) return
    this.started = true
    this.database.atClose(() => this.close())
    if (this.database.kind === 'postgres') this.connect()
    // Behind a transaction-mode pooler a pool connection is no session of its own to LISTEN on.
    if (this.database.poolMode === 'transaction') this.countWrites()
    else if (this.database.kind === 'embedded' || this.options.listenOnPool !== false) this.listenOnPool()
  }

  /**
   * Resolves once every notification of a change this process has committed has been heard, so a
   * cache may be trusted. On a pool that listens (the usual case) that is the case as soon as the
   * pending I/O is read. Behind a transaction-mode pooler the notice comes only to the dedicated
   * connection: after a write, one round trip there follows it (PostgreSQL signals listeners
   * before the committing statement answers, and a notification reaches the client ahead of
   * the next reply on that connection).
   */
  settle(): Promise<void> {
    return this.database.poolMode === 'transaction' ? this.settleBehindPooler() : this.nextTurn()
  }

  private async settleBehindPooler(): Promise<void> {
    await this.nextTurn()
    const wanted = this.writes
    while (this.live && this.syncedWrites < wanted) {
      const client = this.client
      if (!client) return
      this.syncing ??= this.roundTrip(client)
      // A failed round trip: the connection is going, and `live` with it.
      if (!(await this.syncing)) return
    }
  }

  /**
   * The end of the event loop's current I/O phase (a check-phase callback), shared by every caller
   * in the same turn: a notification that arrived before a request was read is handled by then.
   * One timer a turn instead of one per request on the hot authentication path.
   */
  private nextTurn(): Promise<void> {
    this.turn ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turn = undefined
        resolve()
      }),
    )
    return this.turn
  }

  /** One `SELECT 1` on the listening connection; every write counted before it is then heard. */
  private roundTrip(client: pg.Client): Promise<boolean> {
    const target = this.writes
    return client.query('SELECT 1').then(
      () => {
        this.syncedWrites = Math.max(this.syncedWrites, target)
        this.syncing = undefined
        return true
      },
      () => {
        this.syncing = undefined
        return false
      },
    )
  }

  async close(): Promise<void> {
    this.closed = true
    this.live = false
    clearTimeout(this.retry)
    // Only what start() attached: a listener never started touches nothing of the database.
    if (this.listeningOnPool) this.database.pool.off('connect', this.onPoolConnect)
    for (const detach of this.detachers.splice(0)) detach()
    const client = this.client
    this.client = undefined
    await client?.end().catch(() => {})
  }

  private changed(payload?: string) {
    this.generation++
    for (const subscriber of this.subscribers) subscriber(payload)
  }

  private lost() {
    // Once per drop: the failed reconnection attempts that follow change nothing more.
    if (this.missed && !this.live) return
    this.live = false
    this.missed = true
    this.changed()
  }

  /**
   * LISTEN is in force again. Whatever was notified while it was down was never heard, so
   * subscribers are told once more that anything may have changed (a stream re-reads, a cache
   * forgets what it read while the feed was down).
   */
  private relisten() {
    this.live = true
    this.reconnectDelay = RECONNECT_FIRST_MS
    if (!this.missed) return
    this.missed = false
    this.changed()
  }

  /** Transaction pool mode: counts the commits and the writes sent on their own, for `settle`. */
  private countWrites() {
    const wrap = (client: pg.PoolClient) => {
      if (this.attached.has(client) || this.closed) return
      this.attached.add(client)
      let inTransaction = false
      const target = client as unknown as { query: (...args: unknown[]) => unknown }
      const query = target.query.bind(client)
      target.query = (...args: unknown[]) => {
        const first = args[0]
        const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text
        const sent = query(...args)
        if (typeof text !== 'string' || !(sent instanceof Promise)) return sent
        if (/^\s*(begin|start\s+transaction)\b/i.test(text)) inTransaction = true
        else if (/^\s*(rollback)\b/i.test(text)) inTransaction = false
        else if (/^\s*(commit|end)\b/i.test(text) || (!inTransaction && !/^\s*(select|show)\b/i.test(text))) {
          inTransaction = false
          return sent.then((result) => {
            this.writes++
            return result
          })
        }
        return sent
      }
    }
    this.wrapForWrites = wrap
    this.listenOnPool()
  }

  private wrapForWrites: ((client: pg.PoolClient) => void) | undefined

  private connect() {
    const options = this.database.directConnection ?? this.database.pool.options
    const client = new pg.Client({
      ...options,
      application_name: `${options.application_name ?? 'cartage'}-listener`,
    })
    this.client = client
    let down = false
    const lose = () => {
      if (down) return
      down = true
      if (this.client === client) this.client = undefined
      this.lost()
      client.end().catch(() => {})
      if (this.closed) return
      this.retry = setTimeout(() => this.connect(), this.reconnectDelay)
      this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS)
    }
    client.on('error', lose)
    client.on('end', lose)
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.changed(message.payload ?? '')
    })
    client
      .connect()
      .then(() => client.query(`LISTEN "${this.channel}"`))
      .then(() => {
        if (!down && !this.closed) this.relisten()
      }, lose)
  }

  /** Each pool connection listens; embedded, the pool's one connection decides `live`. */
  private listenOnPool() {
    this.listeningOnPool = true
    const { pool } = this.database
    pool.on('connect', this.onPoolConnect)
    // Connections opened before this listener started; LISTEN queues behind whatever they run.
    for (const client of openClientsOf(pool)) this.attach(client)
  }

  private attach(client: pg.PoolClient) {
    if (this.wrapForWrites) {
      this.wrapForWrites(client)
      return
    }
    if (this.attached.has(client) || this.closed) return
    this.attached.add(client)
    let down = false
    const onNotification = (message: pg.Notification) => {
      if (message.channel === this.channel) this.changed(message.payload ?? '')
    }
    client.on('notification', onNotification)
    const primary = this.database.kind === 'embedded'
    const onEnd = () => {
      down = true
      if (primary) this.lost()
    }
    client.once('end', onEnd)
    this.detachers.push(() => {
      client.off('notification', onNotification)
      client.off('end', onEnd)
    })
    client.query(`LISTEN "${this.channel}"`).then(
      () => {
        if (primary && !down && !this.closed) this.relisten()
      },
      () => {},
    )
  }
}
