import type { DatabasePool } from './lane-pool.js'
import type { ClientQuery } from './statement-text.js'

/**
 * Server-side prepared statements for the fixed-shape statements (db/schema-statements.ts): their
 * planning costs more than their execution (a customer with its children: ~1 ms to plan, ~0.5 ms
 * to run). A text registered here runs under a name on each pooled connection, so PostgreSQL
 * parses and plans it once per connection. Memory stays bounded: a prepared statement holds about
 * 200 KB in its backend, so a connection keeps at most PREPARED_PER_CONNECTION of them, the most
 * recently used ones; the least recently used is deallocated to make room. The lane pool
 * (db/lane-pool.ts) sends each organisation's statements to its home connection, so what each
 * connection needs to keep is about 1/size of what the whole pool serves.
 */
export const PREPARED_PER_CONNECTION = 200
/** The bound in force (a bench weighs others; 0 sends every registered text unnamed). */
let preparedPerConnection = PREPARED_PER_CONNECTION

/** Changes how many statements each connection opened from now on keeps prepared (bench/schemas.ts). */
export function setPreparedPerConnection(limit: number): void {
  preparedPerConnection = Math.max(0, Math.floor(limit))
}

const registered = new Set<string>()
/** Names are unique in the process, not only per connection: two connections may share one session (PGlite). */
let nextName = 0

/** Makes `text` run prepared from now on (idempotent). */
export function registerPrepared(text: string): void {
  registered.add(text)
}

/** A text no longer cached: it runs unnamed from now on (connections deallocate it as it ages out). */
export function forgetPrepared(text: string): void {
  registered.delete(text)
}

/** node-postgres remembers which names it has parsed on a connection; an evicted name must leave it. */
type WithParsed = { connection?: { parsedStatements?: Record<string, string> } }

/** Wraps each new connection's `query` so registered texts run as named statements, least recently used out. */
export function usePreparedStatements(pool: DatabasePool): void {
  pool.on('connect', (client) => {
    // Text -> its name on this connection, least recently used first (a Map keeps insertion order).
    const prepared = new Map<string, string>()
    const target = client as unknown as { query: ClientQuery }
    const query = target.query.bind(client) as ClientQuery
    const parsed = (client as unknown as WithParsed).connection?.parsedStatements
    const limit = preparedPerConnection
    target.query = (text, values, callback) => {
      if (typeof text !== 'string' || callback !== undefined || limit === 0 || !registered.has(text))
        return query(text, values, callback)
      let name = prepared.get(text)
      if (name !== undefined) prepared.delete(text)
      else {
        if (prepared.size >= limit) {
          const [oldText, oldName] = prepared.entries().next().value as [string, string]
          prepared.delete(oldText)
          // Queued ahead of the next statement. Names are never reused on a connection, so if this
          // fails (an aborted transaction) the statement merely stays until the connection retires.
          ;(query(`DEALLOCATE "${oldName}"`) as Promise<unknown>).catch(() => {})
          if (parsed) delete parsed[oldName]
        }
        name = `cartage_p${(nextName++).toString(36)}`
      }
      prepared.set(text, name)
      return query({ name, text, values })
    }
  })
}
