/**
 * Delivery scenarios.
 *
 * 1. zones-at-point-500 (in `npm run bench`, `deliveryScenarios`): 500 zones inserted straight into
 *    the organisation's schema by `seedZones`; GET /api/v1/DeliveryZones/coordinates at a point
 *    whose bounding-box prefilter finds two zones, one of which has the point in a hole. The bare
 *    route runs the same statement and the same exact test. Goal: at least 0.8x of it.
 * 2. autobatch (`runAutobatch`, also runnable on its own:
 *    `DATABASE_URL=postgres://... npx tsx bench/scenarios-delivery.ts`; without DATABASE_URL a
 *    throwaway embedded database): one plan, 1,000 unassigned shipments over 20 zones (one with a
 *    hole), a vehicle with room for about 600 of them; one POST /api/v1/plans/{id}/autobatch,
 *    timed end to end through the real HTTP stack. Goal: under 1 s on PostgreSQL.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openCartage } from '../src/apps/cartage.js'
import { loadConfig } from '../src/config.js'
import type { DatabasePool } from '../src/db/lane-pool.js'
import { paged } from '../src/http/envelopes.js'
import { MemoryMailer } from '../src/mail/mailer.js'
import { containsPoint, polygonsOf, type ZoneGeometry } from '../src/modules/delivery/zones/geometry.js'
import {
  decodeShape,
  encodeShape,
  geometryOf,
  shapeDigest,
  shapeOf,
} from '../src/modules/delivery/zones/shape.js'
import type { ZoneRow } from '../src/modules/delivery/zones/zones.repository.js'
import { zonesAroundPointQuery } from '../src/modules/delivery/zones/zones.repository.js'
import { toZone } from '../src/modules/delivery/zones/zones.service.js'
import { benchId, compiled, compiler } from './compiled-sql.js'
import { withEitherCredential } from './reads.js'
import { field, type ResolvedSeed, type Statement } from './scenario-types.js'

const square = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
]

export const ZONE_COUNT = 500
/** Inside grid zone 6 and inside the bounding box of the ring zone, but in the ring's hole. */
const POINT = { longitude: 18.7, latitude: -34.3 }

const zonesAtPoint: Statement = {
  sql: (seed) =>
    compiled(
      zonesAroundPointQuery(compiler, seed.schemaName, seed.businessId, POINT.longitude, POINT.latitude),
    ).sql,
  params: (seed) => [
    ...compiled(
      zonesAroundPointQuery(compiler, seed.schemaName, seed.businessId, POINT.longitude, POINT.latitude),
    ).parameters,
  ],
}

export const deliveryScenarios = withEitherCredential([
  {
    name: 'zones-at-point-500',
    path: () => `/api/v1/DeliveryZones/coordinates?latitude=${POINT.latitude}&longitude=${POINT.longitude}`,
    check: (json) => {
      const data = field(json, 'data')
      return Array.isArray(data) && data.length === 1
    },
    steps: [[zonesAtPoint]],
    rows: [2],
    respond: (rows) => {
      const inside = (rows as unknown as ZoneRow[]).filter((zone) =>
        containsPoint(polygonsOf(geometryOf(decodeShape(zone.geometry))), POINT.longitude, POINT.latitude),
      )
      return paged(
        'core',
        inside.map((zone) => toZone(zone)),
        inside.length,
        {
          page: 1,
          pageSize: Math.max(1, inside.length),
        },
      )
    },
  },
])

/**
 * Inserts, once per business, ZONE_COUNT active zones: 20 half-degree squares on a 5x4 grid around
 * Cape Town, a ring around grid zone 6 with the lookup point in its hole, and MultiPolygons of two
 * squares each spread over the rest of the world.
 */
export async function seedZones(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const schema = seed.schemaName
  const id = (label: string) => benchId(seed.businessId, label)
  const exists = await pool.query(`SELECT 1 FROM "${schema}".delivery_zones WHERE id = $1`, [id('zone-ring')])
  if (exists.rowCount) return
  const zones: { label: string; geometry: ZoneGeometry }[] = []
  for (let i = 0; i < 20; i++) {
    const x = 18 + (i % 5) * 0.5
    const y = -35 + Math.floor(i / 5) * 0.5
    zones.push({
      label: `zone-${i}`,
      geometry: { type: 'Polygon', coordinates: [square(x, y, x + 0.5, y + 0.5)] },
    })
  }
  zones.push({
    label: 'zone-ring',
    geometry: {
      type: 'Polygon',
      coordinates: [square(18.4, -34.6, 19.1, -33.9), square(18.6, -34.4, 18.9, -34.1)],
    },
  })
  for (let i = 0; zones.length < ZONE_COUNT; i++) {
    const x = -170 + (i % 40) * 8
    const y = 10 + Math.floor(i / 40) * 6
    zones.push({
      label: `far-${i}`,
      geometry: {
        type: 'MultiPolygon',
        coordinates: [[square(x, y, x + 3, y + 2)], [square(x + 4, y + 3, x + 7, y + 5)]],
      },
    })
  }
  const rows = zones.map(({ label, geometry }) => {
    const points = polygonsOf(geometry).flat(2) as unknown as number[][]
    const xs = points.map((p) => p[0] ?? 0)
    const ys = points.map((p) => p[1] ?? 0)
    const shape = encodeShape(shapeOf(geometry))
    return {
      id: id(label),
      name: label,
      shape,
      digest: shapeDigest(shape),
      positions: points.length,
      box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    }
  })
  await pool.query(
    `INSERT INTO "${schema}".delivery_zones (id, business_id, name, geometry, geometry_digest, positions, min_longitude, min_latitude, max_longitude, max_latitude)
     SELECT z.id, $1, z.name, z.geometry, z.digest, z.positions, z.x0, z.y0, z.x1, z.y1
     FROM unnest($2::uuid[], $3::text[], $4::bytea[], $10::text[], $5::int[], $6::float8[], $7::float8[], $8::float8[], $9::float8[])
       AS z(id, name, geometry, digest, positions, x0, y0, x1, y1)`,
    [
      seed.businessId,
      rows.map((r) => r.id),
      rows.map((r) => r.name),
      rows.map((r) => r.shape),
      rows.map((r) => r.positions),
      ...[0, 1, 2, 3].map((k) => rows.map((r) => r.box[k])),
      rows.map((r) => r.digest),
    ],
  )
}

export interface AutobatchFigures {
  autobatchMs: number
  autobatchAssigned: number
}

export async function runAutobatch(databaseUrl = process.env.DATABASE_URL): Promise<AutobatchFigures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-bench-delivery-'))
  const config = {
    ...loadConfig({ RATE_LIMIT_PER_IP: '1000000', RATE_LIMIT_PER_ACCOUNT: '1000000' }),
    databaseUrl,
    dataDir,
  }
  const cartage = await openCartage(config, { poolSize: 10, mailer: new MemoryMailer() })
  try {
    const { core, global, database } = cartage
    const email = `bench-${Date.now()}@example.com`
    const password = 'correct-horse-battery'
    const registered = await global.inject({
      method: 'POST',
      url: '/api/organizations',
      payload: {
        business: { registeredName: `Bench ${Date.now()}`, displayName: 'Bench', email: 'ops@example.com' },
        user: {
          firstName: 'B',
          lastName: 'B',
          email,
          password,
          confirmPassword: password,
          acceptedTerms: true,
        },
      },
    })
    const businessId = registered.json().data.id as string
    const login = await global.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    })
    const headers = {
      authorization: `Bearer ${login.json().data.session.accessToken}`,
      'x-business-id': businessId,
    }
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      core.inject({ method, url, headers, ...(payload ? { payload } : {}) })

    // Scenario 1: 20 zones on a 5x4 grid of 0.5-degree cells around Cape Town; 1,000 shipments.
    const zoneIds: string[] = []
    for (let i = 0; i < 20; i++) {
      const x = 18 + (i % 5) * 0.5
      const y = -35 + Math.floor(i / 5) * 0.5
      const rings =
        i === 0
          ? [square(x, y, x + 0.5, y + 0.5), square(x + 0.2, y + 0.2, x + 0.3, y + 0.3)]
          : [square(x, y, x + 0.5, y + 0.5)]
      zoneIds.push(
        (
          await call('POST', '/api/v1/DeliveryZones', {
            name: `Zone ${i}`,
            polygon: { type: 'Polygon', coordinates: rings },
          })
        ).json().data.id,
      )
    }
    const vehicle = (
      await call('POST', '/api/v1/vehicles', {
        registration: 'BENCH1',
        name: 'Truck',
        maxWeight: 6000,
        maxVolume: 600,
      })
    ).json().data
    const schema = (
      await database.db
        .selectFrom('global.organizations')
        .innerJoin('global.businesses', 'global.businesses.organization_id', 'global.organizations.id')
        .select('schema_name')
        .where('global.businesses.id', '=', businessId)
        .executeTakeFirstOrThrow()
    ).schema_name
    let seed = 42
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: crypto.randomUUID(),
      business_id: businessId,
      code: `BENCH-${String(i).padStart(5, '0')}`,
      weight: 10,
      volume: 1,
      scheduled_date: new Date('2026-12-01T08:00:00Z'),
      delivery_address: JSON.stringify({ latitude: -35 + random() * 2, longitude: 18 + random() * 2.5 }),
    }))
    await database.db.withSchema(schema).insertInto('shipments').values(rows).execute()
    const plan = (
      await call('POST', '/api/v1/plans', {
        scheduledDate: '2026-12-01',
        vehicleId: vehicle.id,
        deliveryZoneIds: zoneIds,
        depot: { latitude: -34, longitude: 19 },
      })
    ).json().data
    const started = performance.now()
    const batched = await call('POST', `/api/v1/plans/${plan.id}/autobatch`)
    const autobatchMs = performance.now() - started
    if (batched.statusCode !== 200) throw new Error(`autobatch: ${batched.statusCode} ${batched.body}`)
    const autobatchAssigned = (await call('GET', `/api/v1/plans/${plan.id}`)).json().data.totals
      .shipmentCount as number

    return {
      autobatchMs,
      autobatchAssigned,
    }
  } finally {
    await cartage.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runAutobatch()
  console.log(JSON.stringify(figures, null, 2))
}
