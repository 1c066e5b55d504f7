import { sql } from 'kysely'
import type { Executor } from './tables.js'

/**
 * The next human-readable code of a kind in a business (`ORD-000001`): one atomic upsert on a
 * per-business counter row, so parallel creations never get the same number. Inside a
 * transaction, the counter row stays locked until commit; a rollback gives the number back.
 */
export async function nextCode(
  db: Executor,
  schemaName: string,
  businessId: string,
  name: string,
  prefix: string,
): Promise<string> {
  const { rows } = await sql<{ last_value: number }>`
    INSERT INTO ${sql.table(`${schemaName}.sequences`)} AS s (business_id, name, last_value)
    VALUES (${businessId}, ${name}, 1)
    ON CONFLICT (business_id, name) DO UPDATE SET last_value = s.last_value + 1
    RETURNING last_value`.execute(db)
  const value = Number(rows[0]?.last_value ?? 1)
  return `${prefix}-${String(value).padStart(6, '0')}`
}
