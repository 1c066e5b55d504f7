/**
 * The SQL of a route, compiled without a connection exactly as Kysely compiles it for the route,
 * and stable ids for bench records, derived from the business id so the load generator and the
 * baseline server agree on them without sharing state.
 */
import { createHash } from 'node:crypto'
import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely'
import type { Tables } from '../src/db/tables.js'

export const compiler = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

export const compiled = (query: { compile(db: Kysely<Tables>): CompiledQuery }) => query.compile(compiler)

/** A stable id for a bench record of one business. */
export function benchId(businessId: string, label: string): string {
  const hex = createHash('sha1').update(`${businessId}:${label}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
