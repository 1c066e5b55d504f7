import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createApiKey, rolledBack, schemaOf } from '../../../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { MAIN_CLUSTER } from '../../../db/clusters.js'
import { moveOrganisation } from '../../../db/move-organisation.js'
import * as revokeKeysMadeByKeys from './migrations/20261202090100-revoke-keys-made-by-keys.js'

const ctx = useTestContext()

describe('upgrading', () => {
  it('revokes the keys an API key made, found by their audit entry; keys people made stay', async () => {
    const { org, signedIn } = await ownerSession(ctx)
    // Keys made by keys predate DATABASE_CLUSTERS: every organisation was on main then, and the
    // migration reads its audit log beside the global keys there. One placed on another cluster
    // (CARTAGE_TEST_CLUSTER) is moved to main first, as `cartage org:move` would.
    const clusters = ctx.database.clusters
    const placed = await schemaOf(ctx, org.businessId)
    if (clusters && (await clusters.clusterOf(placed)) !== MAIN_CLUSTER)
      await moveOrganisation(ctx.database, placed, MAIN_CLUSTER)
    await createApiKey(ctx, signedIn.accessToken, org.businessId, { label: 'parent' })
    await createApiKey(ctx, signedIn.accessToken, org.businessId, { label: 'by the owner' })
    const keys = await ctx.database.db
      .selectFrom('global.api_keys')
      .select(['id', 'label', 'organization_id'])
      .where('created_by_user_id', '=', org.userId)
      .execute()
    const parent = keys.find((k) => k.label === 'parent')
    if (!parent) throw new Error('no parent key')
    const schema = await schemaOf(ctx, org.businessId)
    // Rolled back: on PostgreSQL other test files share the database and its keys.
    const revoked = await rolledBack(ctx, async (trx) => {
      // What the earlier version did when a key created a key: the audit trigger names the key as actor.
      await sql`SELECT set_config('cartage.actor', ${`ApiKey|${parent.id}|upgrade-test`}, true)`.execute(trx)
      const child = randomUUID()
      await trx
        .insertInto('global.api_keys')
        .values({
          id: child,
          organization_id: parent.organization_id,
          business_id: org.businessId,
          created_by_user_id: org.userId,
          label: 'by a key',
          key_hash: randomBytes(32),
          key_prefix: 'cak_upgrade1',
          scopes: null,
        })
        .execute()
      await sql`SELECT set_config('cartage.actor', '', true)`.execute(trx)
      await sql.raw(`SET LOCAL search_path TO ${schema}; ${revokeKeysMadeByKeys.sql}`).execute(trx)
      const rows = await trx
        .selectFrom('global.api_keys')
        .select(['label', 'revoked_at'])
        .where('organization_id', '=', parent.organization_id)
        .execute()
      return Object.fromEntries(rows.map((r) => [r.label, r.revoked_at !== null]))
    })
    expect(revoked).toEqual({ parent: false, 'by the owner': false, 'by a key': true })
  })
})
