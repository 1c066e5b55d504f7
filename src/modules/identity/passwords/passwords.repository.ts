import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

/** A reset link proves the mailbox too, so the address counts as verified from here on. */
export async function setPassword(db: Executor, userId: string, passwordHash: string) {
  await db
    .updateTable('global.users')
    .set({
      password_hash: passwordHash,
      email_verified_at: sql<Date>`coalesce(email_verified_at, now())`,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', userId)
    .execute()
}
