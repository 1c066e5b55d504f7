import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

/**
 * Reserves the next dispatch code of the day, `<prefix>-<yyyymmdd>-<sequence>` (the day is the
 * business's own, in its time zone): one atomic upsert on the business's counter for that day, so
 * parallel reservations never share a number, then the reservation row SaveDispatch will consume.
 */
export async function insertDispatchCode(
  db: Executor,
  schema: string,
  businessId: string,
  prefix: string,
  at: Date,
) {
  const { rows } = await sql<{ code: string }>`
    WITH day AS (
      SELECT to_char(${at}::timestamptz AT TIME ZONE b.timezone, 'YYYYMMDD') AS stamp
      FROM ${sql.table(`${schema}.businesses`)} AS b WHERE b.id = ${businessId}
    ), counter AS (
      INSERT INTO ${sql.table(`${schema}.sequences`)} AS s (business_id, name, last_value)
      SELECT ${businessId}, 'dispatch-' || day.stamp, 1 FROM day
      ON CONFLICT (business_id, name) DO UPDATE SET last_value = s.last_value + 1
      RETURNING name, last_value
    )
    INSERT INTO ${sql.table(`${schema}.dispatch_codes`)} (business_id, code)
    SELECT ${businessId}, ${`${prefix}-`} || substr(name, 10) || '-' || lpad(last_value::text, 4, '0') FROM counter
    RETURNING code`.execute(db)
  return rows[0]?.code as string
}

/** Locks a reservation of this business until commit (so two saves of one code run one after the other). */
export async function lockReservation(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  code: string,
) {
  const row = await trx
    .withSchema(schema)
    .selectFrom('dispatch_codes')
    .select('code')
    .where('business_id', '=', businessId)
    .where('code', '=', code)
    .forUpdate()
    .executeTakeFirst()
  return row !== undefined
}
