import type { Generated, Kysely } from 'kysely'
import type { Stamp } from './column-types.js'

/**
 * Every table Cartage queries, for Kysely. Each module declares its own tables beside its code, in a
 * `<module>.tables.ts` that adds them to this interface (`declare module '.../db/tables.js'`), so a
 * new module touches no file outside its folder. `db/tables.test.ts` checks the declarations against
 * the tables the migrations create. Tables of the `global` schema are keyed `global.<table>`; tables
 * inside every organisation schema by their bare name, queried through `withSchema(schemaName)`.
 */
export interface Tables {
  'global.schema_migrations': SchemaMigrationsTable
  'global.tenant_migrations': TenantMigrationsTable
  sequences: SequencesTable
}

/** What repositories run their statements on: the database handle or a transaction of it. */
export type Executor = Kysely<Tables>

/** Bookkeeping of the migrator (db/migrator.ts), which creates these before any migration runs. */
export interface SchemaMigrationsTable {
  name: string
  applied_at: Stamp
}

export interface TenantMigrationsTable {
  schema_name: string
  name: string
  applied_at: Stamp
}

/** Per-business counters behind generated codes (db/sequences.ts). */
export interface SequencesTable {
  business_id: string
  name: string
  last_value: Generated<number>
}
