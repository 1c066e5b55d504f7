import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fieldsOf, useSharedOrganisation } from '../../../../test/fixtures.js'
import { type Core, useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post, put } from '../delivery.fixtures.js'
import { SQUARE_WITH_HOLE, square, TWO_SQUARES } from './zones.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const ZONES = '/api/v1/DeliveryZones'
const zone = async (core: Core, name: string, polygon: object, extra: object = {}) => {
  const response = await post(core, ZONES, { name, polygon, ...extra })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { id: string; name: string }
}
const namesAt = async (core: Core, latitude: number, longitude: number) => {
  const response = await core({ url: `${ZONES}/coordinates?latitude=${latitude}&longitude=${longitude}` })
  expect(response.statusCode, response.body).toBe(200)
  return (response.json().data as { name: string }[]).map((z) => z.name).sort()
}

describe('delivery zones', () => {
  it('creates, reads, lists, replaces and deletes with both credential kinds', async () => {
    const { core, key } = await deliverySetup(ctx)
    const created = await zone(core, 'Centre', SQUARE_WITH_HOLE, { colour: '#ff0000' })
    expect(created).toMatchObject({
      name: 'Centre',
      colour: '#FF0000',
      active: true,
      polygon: SQUARE_WITH_HOLE,
      boundingBox: { minLongitude: 0, minLatitude: 0, maxLongitude: 10, maxLatitude: 10 },
    })
    expect((await key({ url: `${ZONES}/${created.id}` })).json().data).toEqual(created)
    await zone(key, 'Islands', TWO_SQUARES)
    const list = (await core({ url: `${ZONES}?$orderby=name asc` })).json()
    expect(list.data.map((z: { name: string }) => z.name)).toEqual(['Centre', 'Islands'])
    const replaced = await put(key, `${ZONES}/${created.id}`, {
      name: 'Moved',
      polygon: TWO_SQUARES,
      active: false,
    })
    expect(replaced.json().data).toMatchObject({
      name: 'Moved',
      active: false,
      boundingBox: { minLongitude: 20 },
    })
    expect((await core({ method: 'DELETE', url: `${ZONES}/${created.id}` })).json().data).toBe(true)
    expect((await core({ url: `${ZONES}/${created.id}` })).statusCode).toBe(404)
  })

  it('finds every active zone holding a point: holes excluded, every polygon of a MultiPolygon', async () => {
    const { core, key } = await deliverySetup(ctx)
    await zone(core, 'Holed', SQUARE_WITH_HOLE)
    await zone(core, 'Islands', TWO_SQUARES)
    await zone(core, 'Wide', { type: 'Polygon', coordinates: [square(-1, -1, 40, 40)] })
    await zone(core, 'Inactive', { type: 'Polygon', coordinates: [square(0, 0, 50, 50)] }, { active: false })
    expect(await namesAt(core, 1, 1)).toEqual(['Holed', 'Wide'])
    expect(await namesAt(key, 5, 5)).toEqual(['Wide'])
    expect(await namesAt(core, 21, 21)).toEqual(['Islands', 'Wide'])
    expect(await namesAt(core, 31, 31)).toEqual(['Islands', 'Wide'])
    expect(await namesAt(core, 25, 25)).toEqual(['Wide'])
    expect(await namesAt(core, 45, 45)).toEqual([])
    const other = await deliverySetup(ctx, undefined, 'another')
    expect(await namesAt(other.core, 1, 1)).toEqual([])
  })

  it('rejects invalid geometry and coordinates with 400 naming the problem', async () => {
    const { core } = await deliverySetup(ctx)
    const open = await post(core, ZONES, {
      name: 'x',
      polygon: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      },
    })
    expect(open.statusCode).toBe(400)
    expect(fieldsOf(open)).toEqual(['polygon.coordinates[0]'])
    const bowtie = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [2, 2],
          [2, 0],
          [0, 2],
          [0, 0],
        ],
      ],
    }
    expect(fieldsOf(await post(core, ZONES, { name: 'x', polygon: bowtie }))).toEqual([
      'polygon.coordinates[0]',
    ])
    expect(
      fieldsOf(await post(core, ZONES, { name: 'x', polygon: { type: 'Point', coordinates: [1] } })),
    ).toEqual(['polygon.type'])
    // A hole outside its outer ring (here in a MultiPolygon's second polygon) names the position.
    const strayHole = {
      type: 'MultiPolygon',
      coordinates: [[square(0, 0, 1, 1)], [square(10, 10, 20, 20), square(15, 15, 25, 18)]],
    }
    expect(fieldsOf(await post(core, ZONES, { name: 'x', polygon: strayHole }))).toEqual([
      'polygon.coordinates[1][1][1]',
    ])
    expect(
      (await post(core, ZONES, { name: 'x', polygon: SQUARE_WITH_HOLE, colour: 'red' })).statusCode,
    ).toBe(400)
    expect((await core({ url: `${ZONES}/coordinates?latitude=91&longitude=0` })).statusCode).toBe(400)
    expect((await core({ url: `${ZONES}/coordinates?latitude=1` })).statusCode).toBe(400)
  })

  it('answers 401, 403 per permission and 404 for another organisation', async () => {
    const { core, member, scoped } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const foreign = await zone(other.core, 'Theirs', SQUARE_WITH_HOLE)
    expect((await ctx.core.inject({ url: ZONES })).statusCode).toBe(401)
    expect((await member({ url: `${ZONES}/coordinates?latitude=1&longitude=1` })).statusCode).toBe(200)
    expect((await post(member, ZONES, { name: 'x', polygon: SQUARE_WITH_HOLE })).statusCode).toBe(403)
    expect((await scoped({ url: ZONES })).statusCode).toBe(403)
    for (const request of [
      { url: `${ZONES}/${foreign.id}` },
      {
        method: 'PUT' as const,
        url: `${ZONES}/${foreign.id}`,
        payload: { name: 'x', polygon: SQUARE_WITH_HOLE },
      },
      { method: 'DELETE' as const, url: `${ZONES}/${foreign.id}` },
      { url: `${ZONES}/${randomUUID()}` },
    ]) {
      expect((await core(request)).statusCode).toBe(404)
    }
  })

  it('names the changed geometry in the audit log as the API and earlier entries do, not by its storage', async () => {
    const { core } = await deliverySetup(ctx)
    const created = await zone(core, 'Audited', SQUARE_WITH_HOLE)
    expect(
      (await put(core, `${ZONES}/${created.id}`, { name: 'Audited', polygon: TWO_SQUARES })).statusCode,
    ).toBe(200)
    expect(
      (await put(core, `${ZONES}/${created.id}`, { name: 'Renamed', polygon: TWO_SQUARES })).statusCode,
    ).toBe(200)
    const response = await core({
      url: '/api/v1/audit-log',
      query: { entityType: 'DeliveryZone', entityId: created.id, $orderby: 'occurredAt asc' },
    })
    expect(response.statusCode, response.body).toBe(200)
    const entries = response.json().data as { action: string; changes: Record<string, unknown> }[]
    expect(entries.map((e) => e.action)).toEqual(['Created', 'Updated', 'Updated'])
    const [, moved, renamed] = entries
    expect(Object.keys(entries[0]?.changes ?? {})).toContain('geometry')
    expect(moved?.changes).toHaveProperty('geometry')
    expect(moved?.changes).not.toHaveProperty('shape')
    expect(renamed?.changes).toHaveProperty('name')
    expect(renamed?.changes).not.toHaveProperty('geometry')
  })
})
