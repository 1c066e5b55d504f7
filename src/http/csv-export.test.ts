import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  addRole,
  businessSession,
  organizationIdOf,
  schemaOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../test/fixtures.js'
import { useTestContext } from '../../test/harness.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

/** The rows of a CSV answer (no quoted line breaks in these tests), without the byte order mark. */
const rowsOf = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((line) => line !== '')

describe('list export as CSV ($format=csv)', () => {
  it('streams every selected item across pages, filtered and sorted as the list is, and nothing of another business', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const other = await sharedOrganisation(ctx, 'another')
    await other.core({ method: 'POST', url: '/api/v1/Customers', payload: { name: 'Not yours' } })
    const schema = await schemaOf(ctx, owner.org.businessId)
    // 2,345 customers: three statements of 1,000 rows.
    await sql`INSERT INTO ${sql.table(`${schema}.customers`)} (id, business_id, code, name, email)
      SELECT gen_random_uuid(), ${owner.org.businessId}, 'BULK-' || i, 'Bulk ' || lpad(i::text, 5, '0'), 'bulk' || i || '@example.com'
      FROM generate_series(1, 2345) AS i`.execute(ctx.database.db)
    const response = await owner.core({ url: '/api/v1/Customers?$format=csv&$orderby=name&PageSize=5' })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toBe('attachment; filename="Customers.csv"')
    expect(response.body.startsWith('\uFEFF')).toBe(true)
    const [header, ...rows] = rowsOf(response.body)
    const columns = header?.split(',') ?? []
    expect(columns).toEqual(expect.arrayContaining(['id', 'name', 'email', 'status']))
    expect(rows).toHaveLength(2345)
    const names = rows.map((row) => row.split(',')[columns.indexOf('name')])
    expect(names[0]).toBe('Bulk 00001')
    expect(names.at(-1)).toBe('Bulk 02345')
    expect(new Set(names).size).toBe(2345)
    expect(response.body).not.toContain('Not yours')

    const filtered = await owner.core({ url: "/api/v1/Customers?$FORMAT=CSV&$filter=name eq 'Bulk 00042'" })
    expect(rowsOf(filtered.body)).toHaveLength(2)
  })

  it("walks the pages in exactly the list's order where sort values tie, are null or differ by a microsecond", async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const schema = await schemaOf(ctx, owner.org.businessId)
    // 2,100 customers: seven creation times a microsecond apart (ties across page boundaries), every
    // fifth without an email (nulls sort first descending, last ascending).
    await sql`INSERT INTO ${sql.table(`${schema}.customers`)} (id, business_id, code, name, email, date_created)
      SELECT gen_random_uuid(), ${owner.org.businessId}, 'TIE-' || i, 'Tie ' || (i % 3),
        CASE WHEN i % 5 = 0 THEN NULL ELSE 'tie' || (i % 11) || '@example.com' END,
        timestamptz '2026-01-01 00:00:00.000001+00' + (i % 7) * interval '1 microsecond'
      FROM generate_series(1, 2100) AS i`.execute(ctx.database.db)
    const expected = async (order: string, where = 'true') =>
      (
        await sql<{ id: string }>`SELECT id FROM ${sql.table(`${schema}.customers`)}
          WHERE business_id = ${owner.org.businessId} AND deleted_at IS NULL AND ${sql.raw(where)}
          ORDER BY ${sql.raw(order)}`.execute(ctx.database.db)
      ).rows.map((row) => row.id)
    const exported = async (query: string) => {
      const response = await owner.core({ url: `/api/v1/Customers?$format=csv${query}` })
      expect(response.statusCode, response.body).toBe(200)
      const [header, ...rows] = rowsOf(response.body)
      const idAt = header?.split(',').indexOf('id') ?? -1
      return rows.map((row) => row.split(',')[idAt])
    }
    expect(await exported('')).toEqual(await expected('date_created DESC, id'))
    expect(await exported('&$orderby=email desc,dateCreated')).toEqual(
      await expected('email DESC, date_created, id'),
    )
    expect(await exported("&$orderby=email,name desc&$filter=name ne 'Tie 1'")).toEqual(
      await expected('email, name DESC, id', "name <> 'Tie 1'"),
    )
  })

  it('quotes what must be quoted, flattens nested objects and keeps formulas from running in a spreadsheet', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const created = await core({
      method: 'POST',
      url: '/api/v1/Customers',
      payload: { name: '=HYPERLINK("http://evil")', notes: 'a, "b"\nc' },
    })
    expect(created.statusCode, created.body).toBe(200)
    const response = await core({ url: '/api/v1/Customers?$format=csv' })
    const body = response.body.replace(/^\uFEFF/, '')
    expect(body).toContain(`"'=HYPERLINK(""http://evil"")"`)
    const header = body.split('\r\n')[0]?.split(',') ?? []
    expect(header.some((column) => column.includes('.'))).toBe(true)
  })

  it('answers JSON as before without it, and refuses an unknown format or a bad filter with a 400 naming the parameter', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const json = await core({ url: '/api/v1/Customers?$format=json' })
    expect(json.statusCode).toBe(200)
    expect(json.json()).toMatchObject({ page: 1, data: [] })
    const unknown = await core({ url: '/api/v1/Customers?$format=xml' })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.body).toContain('$format')
    const badFilter = await core({ url: '/api/v1/Customers?$format=csv&$filter=nope eq 1' })
    expect(badFilter.statusCode).toBe(400)
    expect(badFilter.headers['content-type']).toMatch(/json/)
    expect(badFilter.body).toContain('$filter')
    // Not a list: the parameter stays unknown there.
    const single = await core({ url: '/api/v1/Customers/00000000-0000-0000-0000-000000000000?$format=csv' })
    expect(single.statusCode).toBe(400)
    expect(single.body).toContain('$format')
  })

  it('needs what the list needs: 401 without a credential, 403 without View', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    expect((await ctx.core.inject({ url: '/api/v1/Customers?$format=csv' })).statusCode).toBe(401)
    const organizationId = await organizationIdOf(ctx, owner.org.businessId)
    const customRoleId = await addRole(ctx, organizationId, { Orders: 7 })
    const member = await addMember(ctx, owner.org.businessId, { role: 'Custom', customRoleId })
    expect((await member.core({ url: '/api/v1/Customers?$format=csv' })).statusCode).toBe(403)
  })
})
