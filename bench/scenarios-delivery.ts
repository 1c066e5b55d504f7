/**
 * Delivery scenarios, runnable on their own (`DATABASE_URL=postgres://... npx tsx bench/scenarios-delivery.ts`;
 * without DATABASE_URL they use a throwaway embedded database):
 *
 * 1. autobatch: one plan, 1,000 unassigned shipments over 20 zones (one with a hole), a vehicle
 *    with room for about 600 of them; one POST /api/v1/plans/{id}/autobatch, timed end to end
 *    through the real HTTP stack. Goal: under 1 s on PostgreSQL.
 * 2. zone lookup: 500 zones; GET /api/v1/DeliveryZones/coordinates over the full stack versus a bare
 *    baseline that runs the same bounding-box statement on the driver and the same exact test.
 *    Goal: at least 0.8x of the baseline's requests per second.
 *
 * `runDeliveryScenarios()` returns the figures so the main bench can report them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildCoreApp } from '../src/apps/core/app.js'
import { buildGlobalApp } from '../src/apps/global/app.js'
import { createServices } from '../src/apps/services.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { migrate } from '../src/db/migrator.js'
import { MemoryMailer } from '../src/mail/mailer.js'
import { containsPoint, polygonsOf, type ZoneGeometry } from '../src/modules/delivery/zones/geometry.js'

const square = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
]

export interface DeliveryFigures {
  autobatchMs: number
  autobatchAssigned: number
  zoneLookupPerSecond: number
  zoneLookupBaselinePerSecond: number
  zoneLookupRatio: number
}

export async function runDeliveryScenarios(databaseUrl = process.env.DATABASE_URL): Promise<DeliveryFigures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-bench-delivery-'))
  const database = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'db'), poolSize: 10 })
  const config = {
    ...loadConfig({ RATE_LIMIT_PER_IP: '1000000', RATE_LIMIT_PER_ACCOUNT: '1000000' }),
    databaseUrl,
    dataDir,
  }
  try {
    await migrate(database)
    const services = await createServices(config, database, false, { mailer: new MemoryMailer() })
    const deps = { config, database, services }
    const core = await buildCoreApp(deps, false)
    const global = await buildGlobalApp(deps, false)
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

    // Scenario 2: 480 more zones (500 in all), then the lookup at fixed points.
    for (let i = 0; i < 480; i++) {
      const x = -170 + (i % 40) * 8
      const y = -60 + Math.floor(i / 40) * 10
      await call('POST', '/api/v1/DeliveryZones', {
        name: `Far ${i}`,
        polygon: {
          type: 'MultiPolygon',
          coordinates: [[square(x, y, x + 3, y + 3)], [square(x + 4, y + 4, x + 7, y + 7)]],
        },
      })
    }
    const points = Array.from({ length: 50 }, () => [-35 + random() * 2, 18 + random() * 2.5] as const)
    const rounds = 20
    const timed = async (fn: (lat: number, lng: number) => Promise<unknown>) => {
      const t0 = performance.now()
      for (let r = 0; r < rounds; r++) await Promise.all(points.map(([lat, lng]) => fn(lat, lng)))
      return (rounds * points.length) / ((performance.now() - t0) / 1000)
    }
    const cartage = await timed((lat, lng) =>
      call('GET', `/api/v1/DeliveryZones/coordinates?latitude=${lat}&longitude=${lng}`),
    )
    const baseline = await timed(async (lat, lng) => {
      const { rows: zones } = await database.pool.query(
        `SELECT id, name, geometry FROM ${schema}.delivery_zones WHERE business_id = $1 AND active AND box(point(min_longitude, min_latitude), point(max_longitude, max_latitude)) @> point($2, $3)`,
        [businessId, lng, lat],
      )
      return JSON.stringify(
        zones.filter((z: { geometry: ZoneGeometry }) => containsPoint(polygonsOf(z.geometry), lng, lat)),
      )
    })
    await core.close()
    await global.close()
    return {
      autobatchMs,
      autobatchAssigned,
      zoneLookupPerSecond: cartage,
      zoneLookupBaselinePerSecond: baseline,
      zoneLookupRatio: cartage / baseline,
    }
  } finally {
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runDeliveryScenarios()
  console.log(JSON.stringify(figures, null, 2))
}
