import type { DatabasePool } from './lane-pool.js'

/**
 * Server-side prepared statements for the fixed-shape statements (db/schema-statements.ts): their
 * planning costs more than their execution (a customer with its children: ~0.3 ms to plan). A
 * text registered here runs under a name on each pooled connection, so PostgreSQL parses and plans
 * it once per connection. Memory stays bounded: a connection prepares at most
 * PREPARED_PER_CONNECTION names (later texts run unnamed), and the pool retires connections after
 * a while (`maxLifetimeSeconds`), so the prepared set follows what is currently in use.
 */
export const PREPARED_PER_CONNECTION = 200

const names = new Map<string, string>()
let counter = 0

/** Makes `text` run prepared from now on (idempotent). */
export function registerPrepared(text: string): void {
  if (!names.has(text)) names.set(text, `cartage_s${(++counter).toString(36)}`)
}

/** A text no longer cached: new connections will not prepare it (old ones keep it until retired). */
export function forgetPrepared(text: string): void {
  names.delete(text)
}

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown

/** Wraps each new connection's `query` so registered texts with values run as named statements. */
export function usePreparedStatements(pool: DatabasePool): void {
  pool.on('connect', (client) => {
    const prepared = new Set<string>()
    const target = client as unknown as { query: Query }
    const query = target.query.bind(client) as Query
    target.query = (text, values, callback) => {
      const name = typeof text === 'string' && callback === undefined ? names.get(text) : undefined
      if (name && (prepared.has(name) || prepared.size < PREPARED_PER_CONNECTION)) {
        prepared.add(name)
        return query({ name, text, values })
      }
      return query(text, values, callback)
    }
  })
}
