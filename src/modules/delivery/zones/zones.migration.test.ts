import { sql, type Transaction } from 'kysely'
import { describe, expect, it } from 'vitest'
import { useTestContext } from '../../../../test/harness.js'
import { newId, shortId } from '../../../db/ids.js'
import { applyTenantMigrations } from '../../../db/migrator.js'
import type { ZoneGeometry } from './geometry.js'
import { encodeShape, shapeOf } from './shape.js'
import { circle, square } from './zones.fixtures.js'
import { findZone } from './zones.repository.js'
import { toZone } from './zones.service.js'

const ctx = useTestContext()
const tenantMigrations = () => ctx.database.migrations.tenant
const MIGRATION = '20261230090000-delivery-zone-shape'

/** Zones as users saved them before: numbers JSON prints oddly, a hole, several polygons, a large ring. */
const OLD_ZONES: Record<string, ZoneGeometry> = {
  awkward: {
    type: 'Polygon',
    coordinates: [
      [
        [18.123456789012344, -33.92541234567891],
        [18.1, -33.9],
        [0.1 + 0.2, 1e-7],
        [-179.99999999999997, 89.99999999999999],
        [18.123456789012344, -33.92541234567891],
      ],
    ],
  },
  holed: { type: 'Polygon', coordinates: [square(0, 0, 10, 10), square(3, 3, 7, 7)] },
  multi: {
    type: 'MultiPolygon',
    coordinates: [[square(20, 20, 22, 22)], [square(30, 30, 32, 32), square(30.5, 30.5, 31, 31)]],
  },
  large: { type: 'Polygon', coordinates: [circle(4000, 18.5, -34, 1)] },
}

describe(`migration ${MIGRATION}`, () => {
  it('converts zones saved as GeoJSON into shapes that read back identically, without audit entries', async () => {
    // A schema no organisation owns: migrate() never sees it; dropped at the end.
    const schema = `org_${shortId(8)}`
    const at = tenantMigrations().findIndex((m) => m.name === MIGRATION)
    expect(at).toBeGreaterThan(0)
    const db = ctx.database.db
    const apply = (migrations: ReturnType<typeof tenantMigrations>) =>
      db
        .transaction()
        .execute((trx) =>
          applyTenantMigrations(
            trx as unknown as Transaction<unknown>,
            schema,
            migrations,
            ctx.database.migrations.afterTenant,
          ),
        )
    const t = (name: string) => sql.table(`${schema}.${name}`)
    try {
      await apply(tenantMigrations().slice(0, at))
      const business = newId()
      await sql`INSERT INTO ${t('businesses')} (id, registered_name, display_name) VALUES (${business}, 'B', 'B')`.execute(
        db,
      )
      const ids: Record<string, string> = {}
      for (const [name, geometry] of Object.entries(OLD_ZONES)) {
        ids[name] = newId()
        // As the earlier version wrote a zone: its GeoJSON in a jsonb column, no position count.
        await sql`INSERT INTO ${t('delivery_zones')} (id, business_id, name, geometry,
            min_longitude, min_latitude, max_longitude, max_latitude)
          VALUES (${ids[name]}, ${business}, ${name}, ${JSON.stringify(geometry)}::jsonb, -180, -90, 180, 90)`.execute(
          db,
        )
      }
      const auditEntries = async () =>
        (
          await sql<{
            n: number
          }>`SELECT count(*)::int AS n FROM ${t('audit_log')} WHERE entity_type = 'DeliveryZone'`.execute(db)
        ).rows[0]?.n
      const entriesBefore = await auditEntries()
      expect(entriesBefore).toBe(Object.keys(OLD_ZONES).length)

      await apply(tenantMigrations().slice(at))

      for (const [name, geometry] of Object.entries(OLD_ZONES)) {
        const row = await findZone(db, schema, business, ids[name] as string)
        if (!row) throw new Error(`zone ${name} is gone`)
        expect(toZone(row).polygon, name).toEqual(geometry)
        // Byte for byte what a save writes today, so a migrated zone and a saved one are alike.
        expect(row.geometry.equals(encodeShape(shapeOf(geometry))), name).toBe(true)
      }
      const { rows: counts } = await sql<{ name: string; positions: number }>`
        SELECT name, positions FROM ${t('delivery_zones')} ORDER BY name`.execute(db)
      expect(counts).toEqual([
        { name: 'awkward', positions: 5 },
        { name: 'holed', positions: 10 },
        { name: 'large', positions: 4000 },
        { name: 'multi', positions: 15 },
      ])
      expect(await auditEntries()).toBe(entriesBefore)
    } finally {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db)
      await sql`DELETE FROM global.tenant_migrations WHERE schema_name = ${schema}`.execute(db)
    }
  })
})
