import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

/** Keeps the first verification time when the address was already verified. */
export async function markEmailVerified(db: Executor, userId: string) {
  await db
    .updateTable('global.users')
    .set({
      email_verified_at: sql<Date>`coalesce(email_verified_at, now())`,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', userId)
    .execute()
}
