import type pg from 'pg'

/**
 * What a failed database call says about the database itself, as opposed to the request: it is
 * unreachable (stopped, restarting, out of connections), or its storage is full. A request that
 * meets either cannot be served now and is answered as such (503 or 507, http/error-handler.ts),
 * never as a bad credential or an internal error.
 */
export type DatabaseFault = 'unavailable' | 'storage_full'

/**
 * SQLSTATEs: class 08 (connection exception), 57P01-57P03 (shut down, cannot connect now), 53300
 * (too many connections), 25006 (a write reached a server in recovery: a standby that Patroni has
 * made leader and HAProxy already routes to, in the moment before its promotion ends). The SQL
 * console answers its own read-only queries' errors before they get here.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '25006'])
/** 53100 disk_full; 53200 out_of_memory is left to the 500 path: it is not the disk. */
const STORAGE_FULL_STATES = new Set(['53100'])
/** The socket to the database failed (node's errno codes). */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
/** What `pg` and its pool say when the connection is gone or none can be had. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Connection is closed',
  'the database system is starting up',
  'the database system is shutting down',
]

export function databaseFault(error: unknown): DatabaseFault | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth++) {
    const { code } = cause as Error & { code?: unknown }
    if (typeof code === 'string') {
      if (STORAGE_FULL_STATES.has(code) || code === 'ENOSPC') return 'storage_full'
      if (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code))
        return 'unavailable'
    }
    if (/No space left on device/i.test(cause.message)) return 'storage_full'
    if (UNAVAILABLE_MESSAGES.some((message) => cause instanceof Error && cause.message.includes(message)))
      return 'unavailable'
    cause = (cause as Error & { cause?: unknown }).cause
  }
  return undefined
}

/** A pool that announces each connection it opens (pg.Pool, LanePool). */
interface ConnectingPool {
  on(event: 'connect', listener: (client: pg.PoolClient) => void): unknown
}

/**
 * A connection lost while its caller holds it between two statements (inside a transaction, or
 * while the caller awaits something else) emits `error` with no statement to fail, and pg's pool
 * listens only on idle connections: unheard, that error would end the process (a primary killed
 * or failed over does this to every connection at once). Heard here and dropped: the holder's
 * next statement fails as `unavailable` (503), and the pool discards the connection on release.
 */
export function survivesLostConnections(pool: ConnectingPool): void {
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
}
