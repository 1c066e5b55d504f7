import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createApiKey, fieldsOf, freshBusiness, schemaOf } from '../../../../test/fixtures.js'
import { type Core, coreAs, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { post, put } from '../delivery.fixtures.js'
import { PLANS, plan, shipment } from '../plans/plans.fixtures.js'
import type { ZoneGeometry } from './geometry.js'
import { encodeShape, shapeDigest, shapeOf } from './shape.js'
import { circle, largestZone, spikyStar } from './zones.fixtures.js'

const ctx = useTestContext()
// One organisation for the file, a business of its own per test: registering one is the dear part.
const owner = useOwnerSession(ctx)
const ZONES = '/api/v1/DeliveryZones'
const at = async (core: Core, longitude: number, latitude: number) => {
  const response = await core({ url: `${ZONES}/coordinates?latitude=${latitude}&longitude=${longitude}` })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { name: string; polygon: { coordinates: number[][][] } }[]
}
const namesAt = async (core: Core, longitude: number, latitude: number) =>
  (await at(core, longitude, latitude)).map((z) => z.name)
/** Each zone's polygon in an answer, as the JSON text it was sent as. */
/** The columns another process writes for a geometry it saves. */
const stored = (geometry: object) => {
  const encoded = encodeShape(shapeOf(geometry as ZoneGeometry))
  return sql`geometry = ${encoded}, geometry_digest = ${shapeDigest(encoded)}`
}
const polygonsIn = (body: string) => [...body.matchAll(/"polygon":(.*?),"colour":/gs)].map((m) => m[1])

describe('delivery zones at the size limit', () => {
  it('saves a 20,000-position zone, finds points by it (holes excluded) and sees every change to it', async () => {
    const { core, businessId } = await freshBusiness(ctx, owner)
    const key = coreAs(ctx, { apiKey: await createApiKey(ctx, owner.signedIn.accessToken, businessId) })
    const geometry = largestZone(18.5, -34)
    const created = await post(core, ZONES, { name: 'Large', polygon: geometry })
    expect(created.statusCode, created.body).toBe(200)
    expect(created.json().data).toMatchObject({
      name: 'Large',
      polygon: geometry,
      boundingBox: { minLongitude: expect.closeTo(17.5, 5), maxLongitude: 19.5 },
    })
    const id = created.json().data.id as string
    expect((await key({ url: `${ZONES}/${id}` })).json().data.polygon).toEqual(geometry)
    await post(core, ZONES, {
      name: 'Small',
      polygon: { type: 'Polygon', coordinates: [circle(8, 18.5, -34, 0.1)] },
    })

    const found = await at(key, 18.8, -34.2)
    expect(found.map((z) => z.name)).toEqual(['Large'])
    expect(found[0]?.polygon).toEqual(geometry)
    expect(await namesAt(core, 18.5, -34)).toEqual(['Large', 'Small'])
    expect(await namesAt(core, 18.0, -34)).toEqual([]) // in the west hole
    expect(await namesAt(core, 18.5, -33.5)).toEqual([]) // in the north hole
    expect(await namesAt(core, 19.45, -33.3)).toEqual([]) // in the bounding box, outside the ring

    // Replaced through the API: the next lookup tests the new geometry.
    const moved = largestZone(20.5, -34)
    expect((await put(core, `${ZONES}/${id}`, { name: 'Large', polygon: moved })).statusCode).toBe(200)
    expect(await namesAt(core, 18.8, -34.2)).toEqual([])
    expect(await namesAt(core, 20.8, -34.2)).toEqual(['Large'])

    // Changed by another process (straight in the database, as another server would save it).
    const schema = await schemaOf(ctx, businessId)
    const back = largestZone(18.5, -34)
    await sql`UPDATE ${sql.table(`${schema}.delivery_zones`)}
      SET ${stored(back)}, min_longitude = 17.5, max_longitude = 19.5,
        revision = revision + 1
      WHERE id = ${id}`.execute(ctx.database.db)
    expect(await namesAt(core, 20.8, -34.2)).toEqual([])
    const again = await at(core, 18.8, -34.2)
    expect(again.map((z) => z.name)).toEqual(['Large'])
    expect(again[0]?.polygon).toEqual(back)
  })

  it('reads and lists large zones with the very JSON their saves answered, coordinates exact', async () => {
    const { core, businessId } = await freshBusiness(ctx, owner)
    const zones = [
      { name: 'A large', polygon: largestZone(18.5, -34) },
      { name: 'B small', polygon: { type: 'Polygon', coordinates: [circle(8, 0, 0, 0.1)] } },
      { name: 'C large', polygon: largestZone(30.25, 10.125) },
    ]
    const saved: { id: string; polygon: string }[] = []
    for (const zone of zones) {
      const response = await post(core, ZONES, zone)
      expect(response.statusCode, response.body).toBe(200)
      const [polygon] = polygonsIn(response.body)
      expect(JSON.parse(polygon as string)).toEqual(zone.polygon)
      saved.push({ id: response.json().data.id, polygon: polygon as string })
    }
    for (const { id, polygon } of saved) {
      // Twice: the first read may prepare the zone's text, the second answers from it.
      for (let i = 0; i < 2; i++) {
        const read = await core({ url: `${ZONES}/${id}` })
        expect(read.statusCode, read.body).toBe(200)
        expect(read.headers['content-type']).toMatch(/^application\/json/)
        expect(polygonsIn(read.body)).toEqual([polygon])
      }
    }
    const list = await core({ url: `${ZONES}?$orderby=name` })
    expect(list.statusCode, list.body).toBe(200)
    expect(polygonsIn(list.body)).toEqual(saved.map((z) => z.polygon))
    expect(list.json()).toMatchObject({
      count: 3,
      data: zones.map((z) => ({ name: z.name, polygon: z.polygon })),
    })

    // The list's CSV export carries the coordinates themselves.
    const csv = await core({ url: `${ZONES}?$orderby=name&$format=csv` })
    expect(csv.statusCode).toBe(200)
    for (const zone of zones)
      expect(csv.body).toContain(`"${JSON.stringify(zone.polygon.coordinates).replaceAll('"', '""')}"`)
    expect(csv.body).not.toContain('zone-coordinates-')

    // Changed by another process: the next read answers the new revision's coordinates.
    const schema = await schemaOf(ctx, businessId)
    const moved = largestZone(19.5, -34)
    await sql`UPDATE ${sql.table(`${schema}.delivery_zones`)}
      SET ${stored(moved)}, revision = revision + 1
      WHERE id = ${saved[0]?.id}`.execute(ctx.database.db)
    const read = await core({ url: `${ZONES}/${saved[0]?.id}` })
    expect(polygonsIn(read.body)).toEqual([JSON.stringify(moved)])
    const relisted = await core({ url: `${ZONES}?$orderby=name` })
    expect(polygonsIn(relisted.body)).toEqual([JSON.stringify(moved), saved[1]?.polygon, saved[2]?.polygon])
  })

  it('names the field of each problem of a large zone', async () => {
    const { core } = owner
    const outer = circle(4000, 0, 0, 1)
    const leaving = await post(core, ZONES, {
      name: 'x',
      polygon: { type: 'Polygon', coordinates: [outer, circle(3000, 0.9, 0, 0.2)] },
    })
    expect(leaving.statusCode).toBe(400)
    expect(fieldsOf(leaving)).toEqual(['polygon.coordinates[1][0]'])
    const crossing = circle(4000, 0, 0, 1)
    crossing[2000] = [1.5, 0.01]
    const crossed = await post(core, ZONES, {
      name: 'x',
      polygon: { type: 'Polygon', coordinates: [crossing] },
    })
    expect(crossed.statusCode).toBe(400)
    expect(fieldsOf(crossed)).toEqual(['polygon.coordinates[0]'])
    const tooMany = await post(core, ZONES, {
      name: 'x',
      polygon: {
        type: 'MultiPolygon',
        coordinates: [0, 3, 6, 9, 12, 15].map((x) => [circle(4000, x, 0, 1)]),
      },
    })
    expect(tooMany.statusCode).toBe(400)
    expect(fieldsOf(tooMany)).toEqual(['polygon.coordinates'])
    const star = await post(core, ZONES, {
      name: 'x',
      polygon: { type: 'Polygon', coordinates: [spikyStar()] },
    })
    expect(star.statusCode).toBe(400)
    expect(star.json()).toMatchObject({ code: 'validation_failed' })
    expect(fieldsOf(star)).toEqual(['polygon.coordinates[0]'])
  })

  it('answers a large body the zone thread leaves to the normal path as it answers a small one', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const geometry = largestZone(10, 10)
    // Property names in other letter cases: the input rules match them.
    const cased = await post(core, ZONES, {
      NAME: 'Cased',
      Polygon: { TYPE: 'Polygon', Coordinates: geometry.coordinates },
    })
    expect(cased.statusCode, cased.body).toBe(200)
    expect(cased.json().data).toMatchObject({ name: 'Cased', polygon: geometry })
    // Text in the coordinates, which may be text no column can store.
    const text = structuredClone(geometry)
    ;(text.coordinates[0] as unknown[][])[5] = ['\u0000', 1]
    const unstorable = await post(core, ZONES, { name: 'x', polygon: text })
    expect(unstorable.statusCode).toBe(400)
    expect(fieldsOf(unstorable)).toEqual(['polygon.coordinates.0.5.0'])
    ;(text.coordinates[0] as unknown[][])[5] = ['east', 1]
    const named = await post(core, ZONES, { name: 'x', polygon: text })
    expect(named.statusCode).toBe(400)
    expect(fieldsOf(named)).toEqual(['polygon.coordinates[0][5]'])
    // Not JSON, and a prototype key: refused as the HTTP layer refuses them on every route.
    const body = JSON.stringify({ name: 'x', polygon: geometry })
    for (const payload of [body.slice(0, -1), body.replace('"name"', '"__proto__":{"a":1},"name"')]) {
      const refused = await core({
        method: 'POST',
        url: ZONES,
        payload,
        headers: { 'content-type': 'application/json' },
      })
      expect(refused.statusCode, refused.body).toBe(400)
    }
    // A name that looks like the answer's stand-in for coordinates is kept as it was sent.
    const odd = await post(core, ZONES, { name: '["zone-coordinates-x:0"]', polygon: geometry })
    expect(odd.statusCode, odd.body).toBe(200)
    expect(odd.json().data).toMatchObject({ name: '["zone-coordinates-x:0"]', polygon: geometry })
  })

  it('autobatches over large zones as over small ones: holes and outside left out', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const zone = await post(core, ZONES, { name: 'Large', polygon: largestZone(18.5, -34) })
    const inside = [await shipment(core, -34.2, 18.8), await shipment(core, -33.7, 18.4)]
    const inHole = await shipment(core, -34, 18)
    const outside = await shipment(core, -33.3, 19.45)
    const p = await plan(core, {
      deliveryZoneIds: [zone.json().data.id],
      depot: { latitude: -34, longitude: 18.5 },
    })
    const run = await post(core, `${PLANS}/${p.id}/autobatch`)
    expect(run.statusCode, run.body).toBe(200)
    const codes = (run.json().messages as { code: string }[]).map((m) => m.code)
    expect(codes).toEqual(['autobatch_outside_zones', 'autobatch_outside_zones'])
    const stops = (await core({ url: `${PLANS}/${p.id}` })).json().data.shipments as { id: string }[]
    expect(stops.map((s) => s.id).sort()).toEqual(inside.map((s) => s.id).sort())
    expect(stops.map((s) => s.id)).not.toContain(inHole.id)
    expect(stops.map((s) => s.id)).not.toContain(outside.id)
  })
})
