import type { DatabasePool } from '../src/db/lane-pool.js'
import type { ResolvedSeed, Seed } from './scenario-types.js'

/**
 * What the API does not show, read once from the database the baseline uses: the organisation's
 * schema (global.businesses -> global.organizations) and the API key's stored digest.
 */
export async function resolveSeed(pool: DatabasePool, seed: Seed): Promise<ResolvedSeed> {
  const { rows } = await pool.query<{ schema_name: string; key_hash: Buffer }>(
    `SELECT o.schema_name, k.key_hash
       FROM global.businesses b
       JOIN global.organizations o ON o.id = b.organization_id
       JOIN global.api_keys k ON k.business_id = b.id AND k.revoked_at IS NULL
      WHERE b.id = $1`,
    [seed.businessId],
  )
  const row = rows[0]
  if (!row || rows.length !== 1)
    throw new Error(`expected one API key for business ${seed.businessId}, found ${rows.length}`)
  return { ...seed, schemaName: row.schema_name, apiKeyHash: row.key_hash }
}
