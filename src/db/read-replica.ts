import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { survivesLostConnections } from './faults.js'
import type { Tables } from './tables.js'

/**
 * A streaming replica (DATABASE_READ_URL) for the heavy reads: the SQL console and the dashboard's
 * figures. A read goes to the replica only when both hold:
 *
 * - the replica is fit: it answered the last check, is in recovery (a standby, not a promoted
 *   copy), and its replay lag is at most `maxLagSeconds` (else it is left out until it catches up);
 * - it has replayed every write acknowledged before the read began: the primary's current WAL
 *   position is read first (one short statement), and the replica's replay position must reach it
 *   within `waitMs`. So a client that has just written, through this process or any other, reads
 *   its own writes; a replica that cannot show them in time is passed over for this read.
 *
 * Otherwise the read runs on the primary, as it would with no replica at all.
 */
export interface ReadReplicaOptions {
  url: string
  /** The primary, for its current WAL position (a plain pool: no schema, no actor). */
  primary: Pick<pg.Pool, 'query'>
  maxLagSeconds: number
  waitMs: number
  /** How often the lag is checked (milliseconds). */
  checkIntervalMs?: number
  applicationName?: string
  poolSize?: number
}

export interface ReplicaStatus {
  /** Whether reads may go to the replica now. */
  available: boolean
  /** Seconds of replay behind the primary at the last check (0 when it has replayed everything); null before any. */
  lagSeconds: number | null
  /** Bytes of WAL the replica had still to replay at the last check; null before any. */
  lagBytes: number | null
  /** Reads served by the replica and by the primary since start. */
  reads: { replica: number; primary: number }
  /** Why the replica is left out, when it is. */
  reason: string | null
}

/** Where one read runs. */
export interface ReadTarget {
  db: Kysely<Tables>
  pool: Pick<pg.Pool, 'connect'>
  onReplica: boolean
}

const POLL_MS = 10

export class ReadReplica {
  readonly pool: pg.Pool
  readonly db: Kysely<Tables>
  private readonly timer: NodeJS.Timeout
  private checking: Promise<void> | undefined
  private state: Omit<ReplicaStatus, 'reads'> = {
    available: false,
    lagSeconds: null,
    lagBytes: null,
    reason: 'not checked yet',
  }
  private readonly reads = { replica: 0, primary: 0 }

  constructor(private readonly options: ReadReplicaOptions) {
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 4,
      idleTimeoutMillis: 30_000,
      application_name: `${options.applicationName ?? 'cartage'}-replica`,
      // A standby that stops answering is found out by the next check, not by a read hanging.
      connectionTimeoutMillis: 2_000,
    })
    // An idle connection that drops (the standby restarted) is replaced on the next read.
    this.pool.on('error', () => {})
    survivesLostConnections(this.pool)
    this.db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: this.pool }) })
    this.timer = setInterval(() => void this.check(), options.checkIntervalMs ?? 1_000)
    this.timer.unref()
  }

  /** Checks the replica's fitness now (also run every `checkIntervalMs`). */
  check(): Promise<void> {
    this.checking ??= this.measure().finally(() => {
      this.checking = undefined
    })
    return this.checking
  }

  private async measure() {
    try {
      const { rows } = await this.pool.query<{
        recovery: boolean
        replayed: string | null
        replayed_at_age: number | null
      }>(
        `SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS replayed,
                extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS replayed_at_age`,
      )
      const row = rows[0]
      if (!row?.recovery || !row.replayed) {
        this.state = {
          available: false,
          lagSeconds: null,
          lagBytes: null,
          reason: 'not a standby in recovery',
        }
        return
      }
      const behind = await this.options.primary.query<{ bytes: string }>(
        'SELECT greatest(pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn), 0)::text AS bytes',
        [row.replayed],
      )
      const lagBytes = Number(behind.rows[0]?.bytes ?? 0)
      // Nothing left to replay is no lag, however long ago the last write came (an idle primary).
      const lagSeconds = lagBytes === 0 ? 0 : Math.max(0, row.replayed_at_age ?? 0)
      const fit = lagSeconds <= this.options.maxLagSeconds
      this.state = {
        available: fit,
        lagSeconds,
        lagBytes,
        reason: fit ? null : `replay lag ${lagSeconds.toFixed(1)} s is over ${this.options.maxLagSeconds} s`,
      }
    } catch (error) {
      this.state = {
        available: false,
        lagSeconds: null,
        lagBytes: null,
        reason: `unreachable: ${(error as Error).message}`,
      }
    }
  }

  status(): ReplicaStatus {
    return { ...this.state, reads: { ...this.reads } }
  }

  /**
   * Where a read that must see every write acknowledged before it should run: the replica when it
   * is fit and has replayed up to the primary's position, else the primary (`fallback`).
   */
  async target(fallback: Omit<ReadTarget, 'onReplica'>): Promise<ReadTarget> {
    if (this.state.available && (await this.caughtUp())) {
      this.reads.replica++
      return { db: this.db, pool: this.pool, onReplica: true }
    }
    this.reads.primary++
    return { ...fallback, onReplica: false }
  }

  private async caughtUp(): Promise<boolean> {
    try {
      const { rows } = await this.options.primary.query<{ lsn: string }>(
        'SELECT pg_current_wal_lsn()::text AS lsn',
      )
      const wanted = rows[0]?.lsn
      if (!wanted) return false
      const until = performance.now() + this.options.waitMs
      for (;;) {
        const replayed = await this.pool.query<{ done: boolean }>(
          'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS done',
          [wanted],
        )
        if (replayed.rows[0]?.done) return true
        if (performance.now() + POLL_MS > until) return false
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
    } catch {
      // An unreachable replica is found out by the next check; this read goes to the primary.
      void this.check()
      return false
    }
  }

  async close() {
    clearInterval(this.timer)
    await this.checking?.catch(() => {})
    await this.db.destroy()
  }
}
