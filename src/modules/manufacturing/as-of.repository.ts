import { sql } from 'kysely'
import type { Executor } from '../../db/tables.js'

/** The last millisecond of the day `date` (yyyy-mm-dd) in the business's time zone; undefined without the business. */
export async function endOfBusinessDay(
  db: Executor,
  schemaName: string,
  businessId: string,
  date: string,
): Promise<Date | undefined> {
  const { rows } = await sql<{ at: Date }>`
    SELECT ((${date}::date + 1)::timestamp AT TIME ZONE b.timezone) - interval '1 millisecond' AS at
    FROM ${sql.table(`${schemaName}.businesses`)} AS b WHERE b.id = ${businessId}`.execute(db)
  return rows[0]?.at
}
