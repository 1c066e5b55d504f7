import { sql, type Transaction } from 'kysely'
import type { Tables } from './tables.js'

/**
 * Takes the transaction-scoped advisory lock named `key` (hashed to PostgreSQL's integer key space),
 * held until commit or rollback: transactions that take the same key run that part in turn. A hash
 * collision between two keys only makes them wait for each other.
 */
export async function lockUntilCommit(trx: Transaction<Tables>, key: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
}
