import { describe, expect, it } from 'vitest'
import {
  businessSession,
  insertCustomer,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../test/fixtures.js'
import { useTestContext } from '../../test/harness.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

type Operation = { parameters?: { name: string; in: string }[] }
type Document = { paths: Record<string, { get?: Operation }> }

// Past the first 40 rows runList chooses a page's keys first (list-query.ts): a second statement
// shape, which every list must be able to run, whatever its joins and columns.
describe('lists past the first rows (the page keys chosen first)', () => {
  it('every list of the Core API answers a deep page, plain and sorted by its default order', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const document = (await ctx.core.inject({ method: 'GET', url: '/openapi.json' })).json() as Document
    const lists = Object.entries(document.paths)
      .filter(
        ([path, item]) => !path.includes('{') && item.get?.parameters?.some((p) => p.name === 'PageSize'),
      )
      .map(([path]) => path)
    expect(lists.length).toBeGreaterThan(15)
    for (const path of lists) {
      const deep = await core({ method: 'GET', url: `${path}?Page=5&PageSize=10` })
      expect(deep.statusCode, `${path} page 5: ${deep.body}`).toBe(200)
      const searched = await core({ method: 'GET', url: `${path}?Page=3&PageSize=20&$search=a` })
      // A list without $search answers 400 naming it; none may fail otherwise.
      expect([200, 400], `${path} searched: ${searched.body}`).toContain(searched.statusCode)
    }
  })

  it('pages past the first rows hold the same rows, in the same order, as one long page', async () => {
    const { core, org } = await businessSession(ctx, await sharedOrganisation(ctx))
    // Names repeat, so the order's tiebreak (the id) decides between equal names across pages.
    for (let i = 0; i < 57; i++) await insertCustomer(ctx, org.businessId, { name: `Customer ${i % 7}` })
    const ids = async (query: string) =>
      (
        (await core({ method: 'GET', url: `/api/v1/Customers?${query}` })).json() as {
          data: { id: string }[]
        }
      ).data.map((row) => row.id)
    const whole = await ids('PageSize=100&$orderby=name desc')
    expect(whole).toHaveLength(57)
    const paged: string[] = []
    for (let page = 1; page <= 6; page++)
      paged.push(...(await ids(`Page=${page}&PageSize=10&$orderby=name desc`)))
    expect(paged).toEqual(whole)
    // The total of a deep page comes from the keys' statement: all rows, and the filtered ones.
    const deep = (await core({ method: 'GET', url: '/api/v1/Customers?Page=3&PageSize=20' })).json() as {
      data: unknown[]
      totalCount: number
    }
    expect([deep.data.length, deep.totalCount]).toEqual([17, 57])
    const filtered = (
      await core({ method: 'GET', url: "/api/v1/Customers?Page=3&PageSize=20&$filter=name ne 'Customer 3'" })
    ).json() as { data: unknown[]; totalCount: number }
    expect([filtered.data.length, filtered.totalCount]).toEqual([9, 49])
  })
})
