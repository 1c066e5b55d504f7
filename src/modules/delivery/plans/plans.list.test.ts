import { describe, expect, it } from 'vitest'
import { fieldsOf } from '../../../../test/fixtures.js'
import { type Core, useTestContext } from '../../../../test/harness.js'
import { deliverySetup } from '../delivery.fixtures.js'
import { PLANS, plan } from './plans.fixtures.js'

const ctx = useTestContext()

type Page = {
  data: { code: string; name: string | null; scheduledDate: string; status: string }[]
  count: number
  totalCount: number
  page: number
  pageSize: number
  finalPage: number
  hasMore: boolean
}

const list = async (core: Core, query: string) => {
  const response = await core({ url: `${PLANS}?${query}` })
  expect(response.statusCode, `${query}: ${response.body}`).toBe(200)
  return response.json() as Page
}

/** Five plans on five days, named so that $search and $orderby have something to tell apart. */
async function fivePlans() {
  const setup = await deliverySetup(ctx)
  const days = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05']
  const names = ['Morning north', 'Evening south', 'Morning south', 'Night run', 'Evening north']
  for (const [i, day] of days.entries())
    await plan(setup.core, { scheduledDate: day, name: names[i], driverName: i === 3 ? 'Thabo' : 'Jo' })
  return setup
}

describe('GET /api/v1/plans with the standard list parameters', () => {
  it('takes Page and PageSize as page and perPage', async () => {
    const { core, key } = await fivePlans()
    const standard = await list(core, 'Page=2&PageSize=2')
    expect(standard).toMatchObject({
      count: 2,
      totalCount: 5,
      page: 2,
      pageSize: 2,
      finalPage: 3,
      hasMore: true,
    })
    expect(standard.data.map((p) => p.scheduledDate)).toEqual(['2026-11-03', '2026-11-02'])
    // The contract's names give the same page; so do mixed ones, for either credential.
    expect(await list(key, 'page=2&perPage=2')).toEqual(standard)
    expect(await list(core, 'page=2&PageSize=2')).toEqual(standard)
    expect(await list(key, 'PAGE=2&perpage=2&pagesize=2')).toEqual(standard)
    // Defaults: page 1 of 50.
    expect(await list(core, '')).toMatchObject({ page: 1, pageSize: 50, count: 5 })
  })

  it('filters with $filter, orders with $orderby and searches with $search, in SQL', async () => {
    const { core } = await fivePlans()
    const filtered = await list(core, `$filter=${encodeURIComponent("startswith(name,'Morning')")}`)
    expect(filtered.data.map((p) => p.name)).toEqual(['Morning south', 'Morning north'])
    const byDay = await list(
      core,
      `$filter=${encodeURIComponent('scheduledDate ge 2026-11-02 and scheduledDate le 2026-11-04')}`,
    )
    expect(byDay.data.map((p) => p.scheduledDate)).toEqual(['2026-11-04', '2026-11-03', '2026-11-02'])
    const one = await list(core, `$filter=${encodeURIComponent('scheduledDate eq 2026-11-03')}`)
    expect(one.data.map((p) => p.scheduledDate)).toEqual(['2026-11-03'])
    const ordered = await list(core, `$orderby=${encodeURIComponent('name asc')}&PageSize=3`)
    expect(ordered.data.map((p) => p.name)).toEqual(['Evening north', 'Evening south', 'Morning north'])
    expect(ordered).toMatchObject({ totalCount: 5, hasMore: true })
    const searched = await list(core, '$search=south')
    expect(searched.data.map((p) => p.name)).toEqual(['Morning south', 'Evening south'])
    expect((await list(core, '$search=thabo')).data.map((p) => p.name)).toEqual(['Night run'])
    // Together with the contract's own filters.
    const both = await list(core, `from=2026-11-02&to=2026-11-04&$search=north&status=draft`)
    expect(both.totalCount).toBe(0)
    const evening = await list(
      core,
      `from=2026-11-02&$filter=${encodeURIComponent("contains(name,'evening')")}`,
    )
    expect(evening.data.map((p) => p.name)).toEqual(['Evening north', 'Evening south'])
    expect((await list(core, `$filter=${encodeURIComponent("status eq 'Draft'")}`)).totalCount).toBe(5)
  })

  it('refuses what it cannot honour with a 400 naming the parameter', async () => {
    const { core } = await deliverySetup(ctx)
    const cases: [string, string[]][] = [
      ['PageSize=0', ['PageSize']],
      ['PageSize=101', ['PageSize']],
      ['Page=0', ['page']],
      ['perPage=10&PageSize=20', ['perPage', 'PageSize']],
      ['page=1&Page=1', ['page']],
      ['page=2&Page=3', ['page']],
      [`$filter=${encodeURIComponent("nope eq 'x'")}`, ['$filter']],
      [`$filter=${encodeURIComponent('scheduledDate eq 2026-11-03T10:00:00Z')}`, ['$filter']],
      [`$filter=${encodeURIComponent("scheduledDate eq 'soon'")}`, ['$filter']],
      [`$orderby=${encodeURIComponent('depot desc')}`, ['$orderby']],
      ['from=2026-13-01', ['from']],
      ['to=yesterday', ['to']],
      ['pagesize=5&perPage=6', ['perPage', 'PageSize']],
    ]
    for (const [query, fields] of cases) {
      const response = await core({ url: `${PLANS}?${query}` })
      expect(response.statusCode, query).toBe(400)
      expect(fieldsOf(response).sort(), query).toEqual([...fields].sort())
    }
    const both = await core({ url: `${PLANS}?page=2&Page=3` })
    expect(both.json().reasons[0].message).toContain('as page and Page')
    // Equal values under both names are one setting.
    expect((await core({ url: `${PLANS}?perPage=7&PageSize=7` })).json().pageSize).toBe(7)
  })

  it('refuses a query parameter it does not take, naming it, instead of ignoring it', async () => {
    const { core, key } = await deliverySetup(ctx)
    for (const caller of [core, key]) {
      const response = await caller({ url: `${PLANS}?$fliter=x&perPage=5&vehicle=abc` })
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response)).toEqual(['$fliter', 'vehicle'])
      expect(response.json().reasons[0].message).toContain('takes page, perPage, PageSize, from, to, status')
    }
    // As everywhere: another operation, with none, or a body operation with an unknown parameter.
    expect(fieldsOf(await core({ url: `${PLANS}/overview?verbose=1` }))).toEqual(['verbose'])
    expect(fieldsOf(await core({ method: 'POST', url: `${PLANS}?dryRun=true`, payload: {} }))).toEqual([
      'dryRun',
    ])
    // Without a credential it is a 401 first.
    expect((await ctx.core.inject({ url: `${PLANS}?nope=1` })).statusCode).toBe(401)
  })
})
