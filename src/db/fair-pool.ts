import type pg from 'pg'
import { currentAffinity, type DatabasePool, openClientsOf, queryKeepingConnection } from './lane-pool.js'
import {
  answerWithoutSending,
  type ClientQuery,
  type HeldStatement,
  NAMES_ORGANISATION_SCHEMA,
  statementText,
} from './statement-text.js'

/** The turn of work that names no organisation (the Global API, jobs, migrations). */
export const NO_ORGANISATION = ''

interface Waiting {
  resolve(client: pg.PoolClient): void
  reject(error: unknown): void
}

/** The organisation a statement is for: the schema it was handed over for, else the first one its text names. */
const organisationOf = (text: unknown, affinity: string | undefined): string => {
  if (affinity !== undefined) return affinity
  const sqlText = statementText(text)
  return (typeof sqlText === 'string' && NAMES_ORGANISATION_SCHEMA.exec(sqlText)?.[0]) || NO_ORGANISATION
}

/**
 * The embedded database's one connection, shared fairly between organisations. Whatever takes the
 * connection (a statement on its own, or a whole transaction) waits in its organisation's queue,
 * and the queues are served in turn: another organisation's request waits for the work in flight
 * and at most one turn of each other organisation waiting, never for one organisation's whole
 * backlog (a FIFO pool of one made it wait for all of it). Inside an organisation the order stays
 * first come, first served, and a transaction runs its next statements on the connection it holds,
 * queueing behind nobody.
 *
 * The organisation is known from the statement: through `withSchemaAffinity`, else from the schema
 * its text names. Kysely takes its connections from `deferred`, whose connection joins a queue only
 * when its first statement is sent (a transaction's BEGIN waits for it), as db/clusters.ts routes.
 */
export class FairPool implements DatabasePool {
  /** Who waits, by organisation; the Map's order is the order of turns (served first, then moved last). */
  private readonly waiting = new Map<string, Waiting[]>()
  private inUse = false

  constructor(private readonly inner: pg.Pool) {}

  get options(): pg.Pool['options'] {
    return this.inner.options
  }

  get totalCount(): number {
    return this.inner.totalCount
  }

  get idleCount(): number {
    return this.inner.idleCount
  }

  get waitingCount(): number {
    let count = this.inner.waitingCount
    for (const queue of this.waiting.values()) count += queue.length
    return count
  }

  /** The open connection (the change listener attaches to one opened before it started). */
  get _clients(): pg.PoolClient[] {
    return openClientsOf(this.inner)
  }

  on(event: 'connect' | 'error', listener: (...args: never[]) => void): this {
    this.inner.on(event as 'connect', listener as (client: pg.PoolClient) => void)
    return this
  }

  off(event: 'connect', listener: (client: pg.PoolClient) => void): this {
    this.inner.off(event, listener)
    return this
  }

  /** The connection, in `organisation`'s next turn; its release starts the next turn. */
  take(organisation: string): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(organisation)
      if (queue) queue.push({ resolve, reject })
      else this.waiting.set(organisation, [{ resolve, reject }])
      this.serve()
    })
  }

  private serve(): void {
    if (this.inUse) return
    const next = this.waiting.entries().next()
    if (next.done) return
    const [organisation, queue] = next.value
    const turn = queue.shift() as Waiting
    // Served: to the back of the round, behind every other organisation waiting.
    this.waiting.delete(organisation)
    if (queue.length > 0) this.waiting.set(organisation, queue)
    this.inUse = true
    const done = () => {
      this.inUse = false
      this.serve()
    }
    this.inner.connect().then(
      (client) => {
        const release = client.release
        let released = false
        client.release = (error?: Error | boolean) => {
          if (released) return release(error)
          released = true
          try {
            return release(error)
          } finally {
            done()
          }
        }
        turn.resolve(client)
      },
      (error: unknown) => {
        done()
        turn.reject(error)
      },
    )
  }

  /** A connection for whoever hands the statement over with `withSchemaAffinity` (the SQL console), or no organisation. */
  connect = (() => this.take(currentAffinity() ?? NO_ORGANISATION)) as pg.Pool['connect']

  /** One statement in its organisation's turn; a statement the server refused keeps the connection. */
  query = ((text: unknown, ...rest: unknown[]) =>
    queryKeepingConnection(this.take(organisationOf(text, currentAffinity())), [
      text,
      ...rest,
    ])) as unknown as pg.Pool['query']

  end = (() => this.inner.end()) as pg.Pool['end']

  /** What Kysely takes its connections from: each joins its organisation's queue at its first statement. */
  readonly deferred = {
    connect: async () => new DeferredClient(this, currentAffinity()),
    end: () => this.inner.end(),
  } as unknown as pg.Pool
}

/** A connection that takes the real one in the turn of the organisation its first statement is for. */
class DeferredClient {
  private client: pg.PoolClient | undefined
  private binding: Promise<pg.PoolClient> | undefined
  private readonly held: HeldStatement[] = []
  private released = false

  constructor(
    private readonly pool: FairPool,
    private readonly affinity: string | undefined,
  ) {}

  query(text: unknown, values?: unknown, callback?: unknown): Promise<unknown> {
    if (this.client) return this.send(this.client, text, values)
    if (callback !== undefined || typeof (text as { submit?: unknown } | null)?.submit === 'function')
      throw new Error('a deferred connection takes statements answered by a promise only')
    const sqlText = statementText(text)
    if (!this.binding && typeof sqlText === 'string') {
      const answer = answerWithoutSending(this.held, sqlText, text, values)
      if (answer) return answer
    }
    this.binding ??= this.bind(organisationOf(text, this.affinity))
    return this.binding.then((client) => this.send(client, text, values))
  }

  private async bind(organisation: string): Promise<pg.PoolClient> {
    const client = await this.pool.take(organisation)
    // Released while it waited for its turn: the turn passes on at once.
    if (this.released) {
      client.release()
      throw new Error('the connection was released before its statement was sent')
    }
    try {
      for (const { text, values } of this.held.splice(0)) await this.send(client, text, values)
    } catch (error) {
      client.release(error as Error)
      throw error
    }
    this.client = client
    return client
  }

  private send(client: pg.PoolClient, text: unknown, values: unknown): Promise<unknown> {
    return (client as unknown as { query: ClientQuery }).query(text, values) as Promise<unknown>
  }

  release(error?: Error | boolean): void {
    this.released = true
    this.held.length = 0
    const client = this.client
    this.client = undefined
    this.binding = undefined
    client?.release(error)
  }
}
