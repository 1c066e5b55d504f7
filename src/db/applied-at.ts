import { sql, type Transaction } from 'kysely'
import type { Tables } from './tables.js'

/**
 * The moment a status change is applied, for its stamp. Not `now()`: that is when the transaction
 * began, so a move that waited for another's row lock would be stamped before the move it followed.
 * Evaluated when the row is written, after any lock wait (PostgreSQL re-evaluates it when the
 * row changed meanwhile).
 */
export const appliedAt = () => sql<Date>`clock_timestamp()`

/** The database clock now, read once, for a change of several rows stamped alike after its locks are held. */
export async function lockedAt(trx: Transaction<Tables>): Promise<Date> {
  const { rows } = await sql<{ at: Date }>`SELECT clock_timestamp() AS at`.execute(trx)
  return rows[0]!.at
}
