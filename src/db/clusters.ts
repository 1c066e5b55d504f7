import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from 'kysely'
import type pg from 'pg'
import { databaseFault } from './faults.js'
import { currentAffinity, type DatabasePool, openClientsOf, withSchemaAffinity } from './lane-pool.js'
import {
  answerWithoutSending,
  type ClientQuery,
  EMPTY_RESULT,
  type HeldStatement,
  NAMES_ORGANISATION_SCHEMA,
  statementText,
} from './statement-text.js'
import './cluster-commits.tables.js'
import type { Tables } from './tables.js'

/** The cluster of DATABASE_URL: it holds the `global` schema and every organisation placed on it. */
export const MAIN_CLUSTER = 'main'

/** One PostgreSQL cluster that holds organisation schemas. */
export interface ClusterSetting {
  name: string
  url: string
}

/** Where new organisations go: the cluster with the fewest, or always one named cluster. */
export type PlacementPolicy = { kind: 'fewest' } | { kind: 'named'; cluster: string }

/** `name=url,name=url` (DATABASE_CLUSTERS): the clusters beside the main one. */
export function parseClusters(raw: string): ClusterSetting[] | string {
  const clusters: ClusterSetting[] = []
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = part.indexOf('=')
    const name = at > 0 ? part.slice(0, at).trim() : ''
    const url = at > 0 ? part.slice(at + 1).trim() : ''
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(name))
      return `"${part}": each entry is name=url, the name in lower-case letters, digits, - or _`
    if (name === MAIN_CLUSTER) return `"${name}" is the cluster of DATABASE_URL; give the others other names`
    if (!/^postgres(ql)?:\/\//.test(url))
      return `${name}: the URL must start with postgres:// or postgresql://`
    if (clusters.some((c) => c.name === name)) return `${name} is named twice`
    clusters.push({ name, url })
  }
  return clusters
}

const NAMES_SCHEMA = NAMES_ORGANISATION_SCHEMA
const SCHEMA_IN_TEXT = new RegExp(NAMES_SCHEMA.source, 'g')
/**
 * A table of the global schema (a function such as `global.audit_actor()` is on every cluster).
 * `tracking_links` is not one of them here: each cluster keeps the links of its own organisations,
 * written in the same transaction as the dispatch that makes them (see CLUSTER_LOCAL_TABLES).
 */
const GLOBAL_TABLE = /"global"\."(?!tracking_links")\w+"|\bglobal\.(?!tracking_links\b)\w+\b(?!\s*\()/
/** The global tables every cluster keeps for the organisations it holds (moved with them by `org:move`). */
export const CLUSTER_LOCAL_TABLES = ['tracking_links'] as const

/** A statement that only reads (a SELECT, or a WITH whose parts all are): no INSERT, UPDATE or DELETE in it. */
const READS_ONLY = /^\s*(select|with)\b(?![\s\S]*\b(insert|update|delete|merge)\b)/i
/** A read that locks what it reads, which only a transaction on the rows' own cluster may do. */
const LOCKS_ROWS = /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i

/** A plain read of global tables only: one that any transaction may have main answer on its own. */
const isGlobalRead = (sqlText: string) =>
  GLOBAL_TABLE.test(sqlText) &&
  READS_ONLY.test(sqlText) &&
  !LOCKS_ROWS.test(sqlText) &&
  !NAMES_SCHEMA.test(sqlText)
/** A BEGIN that asks for more than read committed, whose reads must all be in its one snapshot. */
const namesIsolation = ({ text }: { text: unknown }) => /\bisolation\b/i.test(String(statementText(text)))

/**
 * Organisation schemas spread over several PostgreSQL clusters. The application keeps one pool and
 * one Kysely: a connection taken from this pool is bound to a cluster by the first statement it
 * sends (a transaction's BEGIN waits for it). A statement that names an organisation schema goes to
 * the cluster recorded for that organisation (`global.organizations.cluster`, kept in a map); one
 * that names none (the `global` schema) goes to the main cluster. A transaction stays on the
 * cluster it started on: a statement naming a schema of another cluster inside it fails, as a
 * transaction cannot span two servers.
 */
export class ClusterPool extends EventEmitter implements DatabasePool {
  /** Schema name -> cluster; filled at start and on first use, changed by a move. */
  private readonly placement = new Map<string, string>()
  readonly dbs = new Map<string, Kysely<Tables>>()

  constructor(
    /** Every cluster's own pool, the main one first. */
    readonly pools: ReadonlyMap<string, DatabasePool>,
    readonly policy: PlacementPolicy = { kind: 'fewest' },
  ) {
    super()
    for (const pool of pools.values()) {
      pool.on('connect', (client) => this.emit('connect', client))
      pool.on('error', (error, client) => this.emit('error', error, client))
    }
    for (const [name, pool] of pools)
      this.dbs.set(name, new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }))
  }

  private get main(): DatabasePool {
    return this.pools.get(MAIN_CLUSTER) as DatabasePool
  }

  get options(): pg.Pool['options'] {
    return this.main.options
  }
  get totalCount(): number {
    return [...this.pools.values()].reduce((sum, pool) => sum + pool.totalCount, 0)
  }
  get idleCount(): number {
    return [...this.pools.values()].reduce((sum, pool) => sum + pool.idleCount, 0)
  }
  get waitingCount(): number {
    return [...this.pools.values()].reduce((sum, pool) => sum + pool.waitingCount, 0)
  }
  /** Every open connection of every cluster (the change listener attaches to those). */
  get _clients(): pg.PoolClient[] {
    return [...this.pools.values()].flatMap(openClientsOf)
  }

  /** Every cluster's name, the main one first. */
  get names(): string[] {
    return [...this.pools.keys()]
  }

  /** A query builder on one cluster only (migrations, registration, moves): nothing is routed. */
  db(cluster: string): Kysely<Tables> {
    const db = this.dbs.get(cluster)
    if (!db) throw new Error(`cluster ${cluster} is not configured (DATABASE_CLUSTERS)`)
    return db
  }

  /** Where the next organisation goes: the named cluster, or the one holding the fewest (main on a tie). */
  async choose(): Promise<string> {
    if (this.policy.kind === 'named') return this.policy.cluster
    const { rows } = await this.main.query<{ cluster: string; n: number }>(
      'SELECT cluster, count(*)::int AS n FROM global.organizations GROUP BY cluster',
    )
    const counts = new Map(rows.map((r) => [r.cluster, r.n]))
    let best = MAIN_CLUSTER
    for (const name of this.pools.keys()) if ((counts.get(name) ?? 0) < (counts.get(best) ?? 0)) best = name
    return best
  }

  private readonly prepares = new Map<string, Promise<boolean>>()

  /**
   * Whether a cluster can prepare transactions (`max_prepared_transactions` > 0), asked once; a
   * cluster that cannot is named in a warning, and its writes with main are not two-phase.
   */
  preparesOn(cluster: string): Promise<boolean> {
    let known = this.prepares.get(cluster)
    if (!known) {
      known = this.db(cluster)
        .executeQuery<{ n: number }>(
          sql`SELECT current_setting('max_prepared_transactions')::int AS n`.compile(this.db(cluster)),
        )
        .then(({ rows }) => {
          const can = (rows[0]?.n ?? 0) > 0
          if (!can)
            process.emitWarning(
              `cluster ${cluster} has max_prepared_transactions = 0: a write to global rows and to an organisation there is not two-phase (docs/deployment.md)`,
            )
          return can
        })
      known.catch(() => this.prepares.delete(cluster))
      this.prepares.set(cluster, known)
    }
    return known
  }

  /** Forgets every placement (an organisation was moved): each is read again at its next statement. */
  forget(): void {
    this.placement.clear()
  }

  /** Records where a schema lives (start-up, registration, a move). */
  place(schema: string, cluster: string): void {
    this.placement.set(schema, cluster)
  }

  /** The cluster of a schema: the map, else the global record (an organisation another process made). */
  async clusterOf(schema: string): Promise<string> {
    const known = this.placement.get(schema)
    if (known !== undefined) return known
    const { rows } = await this.main.query<{ cluster: string }>(
      'SELECT cluster FROM global.organizations WHERE schema_name = $1',
      [schema],
    )
    const cluster = rows[0]?.cluster
    if (cluster === undefined) return MAIN_CLUSTER
    this.placement.set(schema, cluster)
    return cluster
  }

  /** The cluster a statement belongs to: that of the schemas it names (all on one), else main. */
  async clusterOfText(text: string, affinity: string | undefined): Promise<string> {
    if (affinity !== undefined) return this.clusterOf(affinity)
    const schemas = new Set(text.match(SCHEMA_IN_TEXT))
    let cluster: string | undefined
    for (const schema of schemas) {
      const found = await this.clusterOf(schema)
      if (cluster !== undefined && cluster !== found)
        throw new Error(`one statement names schemas on clusters ${cluster} and ${found}`)
      cluster = found
    }
    return cluster ?? MAIN_CLUSTER
  }

  /** A statement for the main cluster, on a connection of its own (no transaction). */
  mainQuery(text: unknown, values: unknown): Promise<unknown> {
    return (this.main.query as unknown as ClientQuery).call(this.main, text, values) as Promise<unknown>
  }

  connect = (async () => new RoutedClient(this, currentAffinity())) as unknown as pg.Pool['connect']

  query = (async (text: unknown, values?: unknown) => {
    const client = new RoutedClient(this, currentAffinity())
    try {
      return await client.query(text, values)
    } finally {
      client.release()
    }
  }) as unknown as pg.Pool['query']

  end = (async () => {
    await Promise.all([...this.dbs.values()].map((db) => db.destroy()))
  }) as pg.Pool['end']
}

/** A connection that takes its server connection from the cluster its first statement belongs to. */
class RoutedClient {
  private client: pg.PoolClient | undefined
  private cluster: string | undefined
  private readonly held: HeldStatement[] = []

  constructor(
    private readonly router: ClusterPool,
    private readonly affinity: string | undefined,
  ) {}

  query(text: unknown, values?: unknown, callback?: unknown): Promise<unknown> {
    if (callback !== undefined) throw new Error('a routed connection answers with promises only')
    const sqlText = statementText(text)
    if (typeof sqlText !== 'string') throw new Error('a routed connection needs the statement text')
    if (!this.client) {
      const answer = answerWithoutSending(this.held, sqlText, text, values)
      if (answer) return answer
      // A transaction that begins by reading global rows only (who the members are) is not bound
      // by that read: it is answered by main, and the transaction goes where its first statement
      // on an organisation's schema (or first write) takes it. Read committed sees the same.
      if (this.held.length > 0 && isGlobalRead(sqlText) && !this.held.some(namesIsolation))
        return this.router.mainQuery(text, values)
      return this.bind(sqlText).then(() => this.guarded(sqlText, text, values))
    }
    // A statement that names no organisation schema stays where the connection is.
    if (!NAMES_SCHEMA.test(sqlText)) return this.guarded(sqlText, text, values)
    return this.router.clusterOfText(sqlText, undefined).then((cluster) => {
      if (cluster !== this.cluster)
        throw new Error(`a transaction on cluster ${this.cluster} cannot reach cluster ${cluster}`)
      return this.guarded(sqlText, text, values)
    })
  }

  /**
   * The global tables live on the main cluster only (another cluster keeps empty copies, made by
   * the global migrations): a statement reading or writing them on another cluster would see
   * nothing, so it fails instead of answering wrongly.
   */
  private guarded(sqlText: string, text: unknown, values: unknown): Promise<unknown> {
    if (this.cluster !== MAIN_CLUSTER && GLOBAL_TABLE.test(sqlText)) {
      // A plain read of global rows only (who the members are, a user's name) is answered by the
      // main cluster, outside this transaction: it sees what main has committed.
      if (isGlobalRead(sqlText)) return this.router.mainQuery(text, values)
      return Promise.reject(
        new Error(
          `a statement on cluster ${this.cluster} names a global table, which only the main cluster holds`,
        ),
      )
    }
    return this.send(text, values)
  }

  private send(text: unknown, values: unknown): Promise<unknown> {
    return (this.client as unknown as { query: ClientQuery }).query(text, values) as Promise<unknown>
  }

  private async bind(sqlText: string) {
    const cluster = await this.router.clusterOfText(sqlText, this.affinity)
    const pool = this.router.pools.get(cluster)
    if (!pool) throw new Error(`cluster ${cluster} is not configured (DATABASE_CLUSTERS)`)
    const client =
      this.affinity === undefined
        ? await pool.connect()
        : await withSchemaAffinity(this.affinity, () => pool.connect())
    this.client = client
    this.cluster = cluster
    try {
      for (const { text, values } of this.held.splice(0)) await this.send(text, values)
    } catch (error) {
      this.release(error as Error)
      throw error
    }
  }

  release(error?: Error | boolean): void {
    this.held.length = 0
    const client = this.client
    this.client = undefined
    this.cluster = undefined
    client?.release(error)
  }
}

/**
 * Work that changes global rows and an organisation's tables together: `global` for the global
 * tables, `organisation` for the organisation's schema. With the schema on the main cluster (always
 * so with one cluster) both are the one transaction they were. With it on another cluster, it is a
 * two-phase commit with main as the coordinator: the organisation's transaction (its connection
 * taken first, so a request never holds main's while it waits for another cluster's) does its work,
 * a decision record is written in main's transaction, the organisation's part is prepared
 * (PREPARE TRANSACTION), then main commits, and only then is the prepared part committed. A failure
 * anywhere up to main's commit, that commit included, leaves nothing on either side; a prepared
 * part left by a crash or a lost connection is settled from the record (settlePreparedWrites).
 * Needs `max_prepared_transactions` > 0 on the organisation's cluster; without it the organisation's
 * part commits just before main's (a failure of main's commit itself then leaves it), with a warning.
 */
export async function globalAndOrganisation<R>(
  database: { db: Kysely<Tables>; clusters?: ClusterPool | undefined },
  schema: string,
  work: (global: Transaction<Tables>, organisation: Transaction<Tables>) => Promise<R>,
): Promise<R> {
  const clusters = database.clusters
  const cluster = clusters ? await clusters.clusterOf(schema) : MAIN_CLUSTER
  if (!clusters || cluster === MAIN_CLUSTER) return database.db.transaction().execute((trx) => work(trx, trx))
  return twoPhase(database.db, clusters, schema, cluster, await clusters.preparesOn(cluster), work)
}

/** The prefix of the transactions globalAndOrganisation prepares (what settlePreparedWrites looks for). */
const GID_PREFIX = 'cartage:'
const COMMIT = /^\s*commit\b/i
/** A NOTIFY may not be prepared: the organisation's are sent once its part is committed. */
const NOTIFIES = /^\s*select\s+pg_notify\s*\(/i
/** SQLSTATE 42704: no prepared transaction of that name (settled already, by the recovery or the writer). */
const UNDEFINED_OBJECT = '42704'
/** SQLSTATE 55P03: lock_timeout passed waiting for the decision record's key (main's writer still open). */
const LOCK_NOT_AVAILABLE = '55P03'

async function twoPhase<R>(
  db: Kysely<Tables>,
  clusters: ClusterPool,
  schema: string,
  cluster: string,
  prepare: boolean,
  work: (global: Transaction<Tables>, organisation: Transaction<Tables>) => Promise<R>,
): Promise<R> {
  const gid = `${GID_PREFIX}${randomUUID()}`
  const routed = new RoutedClient(clusters, undefined)
  const notifications: { text: unknown; values: unknown }[] = []
  let prepared = false
  let globalTrx: Transaction<Tables> | undefined
  // The organisation's transaction on a connection of its own, whose COMMIT becomes the PREPARE.
  const client = {
    query: async (text: unknown, values?: unknown) => {
      const sqlText = String(statementText(text))
      // A plain read of global rows (who the members are) is answered by main's transaction of this
      // write, which sees its own changes, rather than by a second connection to main: a request
      // holding one of main's connections never waits for another (pools full: no deadlock).
      if (globalTrx && isGlobalRead(sqlText)) {
        const { rows } = await globalTrx.executeQuery(
          CompiledQuery.raw(sqlText, Array.isArray(values) ? (values as unknown[]) : []),
        )
        return { ...EMPTY_RESULT, command: 'SELECT', rows, rowCount: rows.length }
      }
      if (NOTIFIES.test(sqlText)) {
        notifications.push({ text, values })
        return { ...EMPTY_RESULT, command: 'SELECT' }
      }
      if (!prepare || !COMMIT.test(sqlText)) return routed.query(text, values)
      const answered = await routed.query(`PREPARE TRANSACTION '${gid}'`)
      prepared = true
      return answered
    },
    release: () => {},
  }
  const organisationDb = new Kysely<Tables>({
    dialect: new PostgresDialect({
      pool: { connect: async () => client, end: async () => {} } as unknown as pg.Pool,
    }),
  })
  const state: { outcome: 'committed' | 'unsettled' | 'failed' } = { outcome: 'failed' }
  let broken: Error | undefined
  try {
    const result = await db.transaction().execute((global) => {
      globalTrx = global
      return organisationDb.transaction().execute(async (organisation) => {
        // The organisation's cluster first: its connection is taken before main's.
        await sql.raw(`SELECT '${schema}'::text AS organisation`).execute(organisation)
        const done = await work(global, organisation)
        if (prepare) await global.insertInto('global.cluster_commits').values({ gid, cluster }).execute()
        return done
      })
    })
    // Decided on main: the prepared part is committed (or, should this fail, settled below).
    state.outcome = 'committed'
    if (prepared)
      await routed.query(`COMMIT PREPARED '${gid}'`).catch((error: Error & { code?: unknown }) => {
        // Gone: a settling round (another process's, or this one's) committed it from main's record.
        if (error.code === UNDEFINED_OBJECT) return
        state.outcome = 'unsettled'
        broken = error
      })
    if (state.outcome === 'committed')
      for (const { text, values } of notifications) await routed.query(text, values).catch(() => {})
    return result
  } catch (error) {
    if (prepared)
      await routed.query(`ROLLBACK PREPARED '${gid}'`).catch((lost: Error) => {
        state.outcome = 'unsettled'
        broken = lost
      })
    broken ??= error as Error
    throw error
  } finally {
    // Main's connection is back in its pool; this one goes back before main is reached again.
    routed.release(broken && databaseFault(broken) ? broken : undefined)
    void organisationDb.destroy()
    if (state.outcome === 'unsettled') await settleLater(clusters, cluster, gid)
    else if (prepared && state.outcome === 'committed')
      await clusters.mainQuery('DELETE FROM global.cluster_commits WHERE gid = $1', [gid]).catch(() => {})
  }
}

/** A prepared part this writer could not settle (its connection lost): tried again on a fresh connection. */
async function settleLater(clusters: ClusterPool, cluster: string, gid: string): Promise<void> {
  await settle(clusters, cluster, gid).catch(() => {
    // Left to the next settling round (settlePreparedWrites): the decision record says what to do.
  })
}

/**
 * Settles one prepared transaction from main's decision record: committed if main committed its
 * record, rolled back if not. Writing the `committed = false` record waits for a main transaction
 * still writing the same gid (a writer between its PREPARE and main's commit): if that one commits,
 * the insert does nothing and the part is committed; if it rolls back, the part is rolled back.
 */
async function settle(
  clusters: ClusterPool,
  cluster: string,
  gid: string,
  limits: { lockTimeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<'committed' | 'rolled back' | 'gone' | 'waiting'> {
  const main = clusters.db(MAIN_CLUSTER)
  const claim = main
    .insertInto('global.cluster_commits')
    .values({ gid, cluster, committed: false })
    .onConflict((oc) => oc.column('gid').doNothing())
    .returning('gid')
  let claimed: { gid: string }[]
  if (limits.lockTimeoutMs === undefined && !limits.signal) claimed = await claim.execute()
  else {
    const outcome = await claimWithin(clusters, claim.compile(), limits)
    if (outcome === 'waiting') return outcome
    claimed = outcome
  }
  const committed =
    claimed.length === 0 &&
    (
      await main
        .selectFrom('global.cluster_commits')
        .select('committed')
        .where('gid', '=', gid)
        .executeTakeFirst()
    )?.committed === true
  // Gone: its writer, or another settling process, settled it first (as main decided).
  const gone = await sql
    .raw(`${committed ? 'COMMIT' : 'ROLLBACK'} PREPARED '${gid}'`)
    .execute(clusters.db(cluster))
    .then(
      () => false,
      (error: { code?: unknown }) => {
        if (error.code !== UNDEFINED_OBJECT) throw error
        return true
      },
    )
  await main.deleteFrom('global.cluster_commits').where('gid', '=', gid).execute()
  return gone ? 'gone' : committed ? 'committed' : 'rolled back'
}

/**
 * The claim of a periodic round: in a transaction of its own (committed before the part is
 * settled), failing rather than waiting past `lockTimeoutMs` for a main transaction that still holds
 * the record's key, and cut off when `signal` aborts (its connection is dropped, so the claim is
 * never committed, and the pool does not wait for it). Either way the part stays prepared for a
 * later round: 'waiting'.
 */
async function claimWithin(
  clusters: ClusterPool,
  claim: CompiledQuery<{ gid: string }>,
  { lockTimeoutMs, signal }: { lockTimeoutMs?: number | undefined; signal?: AbortSignal | undefined },
): Promise<{ gid: string }[] | 'waiting'> {
  if (signal?.aborted) return 'waiting'
  const client = await (clusters.pools.get(MAIN_CLUSTER) as DatabasePool).connect()
  let dropped = false
  const drop = () => {
    dropped = true
    client.release(new Error('stopping: the settling round is cut off'))
  }
  signal?.addEventListener('abort', drop, { once: true })
  try {
    await client.query('BEGIN')
    if (lockTimeoutMs !== undefined)
      await client.query("SELECT set_config('lock_timeout', $1, true)", [
        `${Math.max(1, Math.round(lockTimeoutMs))}ms`,
      ])
    const { rows } = await client.query<{ gid: string }>(claim.sql, [...claim.parameters])
    await client.query('COMMIT')
    return rows
  } catch (error) {
    if (dropped) return 'waiting'
    await client.query('ROLLBACK').catch(() => {})
    if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return 'waiting'
    throw error
  } finally {
    signal?.removeEventListener('abort', drop)
    if (!dropped) client.release()
  }
}

/**
 * How often a serving process settles prepared writes, and how old a prepared write must be for it
 * to look: a younger one is most likely a live writer's, between its PREPARE and its COMMIT PREPARED.
 * A write still older than that whose main transaction holds its decision record is stuck there: the
 * round waits for it at most `lockTimeoutMs`, then leaves it to a later round.
 */
export const SETTLE_PREPARED = { intervalMs: 30_000, olderThanMs: 10_000, lockTimeoutMs: 2_000 }

export interface SettleOptions {
  /** Only the prepared writes at least this old (0: all). */
  olderThanMs?: number
  /**
   * How long settling one write may wait for main's transaction that holds its decision record;
   * past it the write is left prepared (`onLeft`) for a later round. Absent: as long as it takes.
   */
  lockTimeoutMs?: number
  /** Ends the round before the next write once aborted (a process that is stopping). */
  signal?: AbortSignal
  /** Hears each write left prepared because its decision record stayed locked past `lockTimeoutMs`. */
  onLeft?: (left: { cluster: string; gid: string }) => void
}

/**
 * Settles every transaction globalAndOrganisation prepared on another cluster and left there (a
 * process that crashed between PREPARE and COMMIT PREPARED, a lost connection), and removes the
 * decision records whose prepared part is settled. Run before migrating (a prepared transaction keeps
 * its locks, which would stop the DDL) and periodically while serving, with `olderThanMs`.
 *
 * A live writer's transaction is never rolled back: its decision record is written in main's
 * transaction before its PREPARE, so settling one claims the record's key, which waits for that main
 * transaction; if main commits, the part is committed, as the writer would have. `olderThanMs` only
 * spares the live writers that wait (and the periodic round that work): a prepared write younger
 * than that is left to its writer this round, and its record is kept.
 */
export async function settlePreparedWrites(
  clusters: ClusterPool,
  { olderThanMs = 0, lockTimeoutMs, signal, onLeft }: SettleOptions = {},
): Promise<{ committed: number; rolledBack: number }> {
  const counts = { committed: 0, rolledBack: 0 }
  const main = clusters.db(MAIN_CLUSTER)
  // Before the global migrations have made the decision table, nothing can have been prepared.
  const { rows: ready } = await sql<{
    found: boolean
  }>`SELECT to_regclass('global.cluster_commits') IS NOT NULL AS found`.execute(main)
  if (!ready[0]?.found) return counts
  for (const cluster of clusters.names) {
    if (cluster === MAIN_CLUSTER || !(await clusters.preparesOn(cluster))) continue
    // The records first: one seen here was written after its PREPARE, so a gid absent below is settled.
    const records = await main
      .selectFrom('global.cluster_commits')
      .select('gid')
      .where('cluster', '=', cluster)
      .execute()
    const { rows } = await sql<{ gid: string; due: boolean }>`SELECT gid,
        prepared <= now() - make_interval(secs => ${olderThanMs / 1000}) AS due
      FROM pg_prepared_xacts
      WHERE gid LIKE ${`${GID_PREFIX}%`} AND database = current_database()`.execute(clusters.db(cluster))
    // Every prepared one, due or not: a record whose part is still prepared is kept.
    const pending = new Set(rows.map((r) => r.gid))
    for (const { gid } of rows.filter((r) => r.due)) {
      if (signal?.aborted) return counts
      const outcome = await settle(clusters, cluster, gid, { lockTimeoutMs, signal })
      if (outcome === 'committed') counts.committed++
      else if (outcome === 'rolled back') counts.rolledBack++
      else if (outcome === 'waiting') onLeft?.({ cluster, gid })
    }
    if (signal?.aborted) return counts
    const settled = records.map((r) => r.gid).filter((gid) => !pending.has(gid))
    if (settled.length > 0)
      await main.deleteFrom('global.cluster_commits').where('gid', 'in', settled).execute()
  }
  return counts
}
