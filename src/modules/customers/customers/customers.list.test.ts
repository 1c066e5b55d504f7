import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  businessSession,
  fieldsOf,
  schemaOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { type Core, useTestContext } from '../../../../test/harness.js'
import { CUSTOMERS, createCustomer, createGroup } from './customers.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

type Item = { id: string; name: string; contacts: unknown[]; attachments: unknown[] }

/** Five customers in one business with groups, metadata and contacts, plus a deleted one. */
async function catalogue(organisation = 'first') {
  const session = await businessSession(ctx, await sharedOrganisation(ctx, organisation))
  const { core } = session
  const trade = await createGroup(core, 'Trade')
  const acme = await createCustomer(core, {
    name: 'Acme Supplies',
    email: 'orders@acme.example',
    type: 'Company',
    customerGroupId: trade.id,
    metadata: { erpId: 'C-1', region: 'West' },
    contacts: [
      { firstName: 'Jane', lastName: 'Doe' },
      { firstName: 'Janet', lastName: 'Doe', isPrimary: true },
    ],
  })
  const bolt = await createCustomer(core, {
    name: 'Bolt & Nut',
    phoneNumber: '+27 21 555 0100',
    type: 'Company',
    status: 'Inactive',
    customerGroupId: trade.id,
    metadata: { erpId: 'C-2' },
  })
  const carol = await createCustomer(core, {
    name: 'Carol Smith',
    email: 'carol@mail.example',
    metadata: { region: 'East' },
  })
  const dave = await createCustomer(core, {
    name: 'Dave 100%_Real',
    contacts: [{ firstName: 'Xavier', lastName: 'Quill' }],
  })
  const erin = await createCustomer(core, { name: 'Erin' })
  const gone = await createCustomer(core, { name: 'Acme Gone' })
  await core({ method: 'DELETE', url: `${CUSTOMERS}/${gone.id}` })
  return { ...session, trade, acme, bolt, carol, dave, erin, gone }
}

async function names(core: Core, query: string) {
  const response = await core({ url: `${CUSTOMERS}?${query}` })
  expect(response.statusCode, response.body).toBe(200)
  return (response.json().data as Item[]).map((c) => c.name)
}

describe('GET /api/v1/Customers', () => {
  it('lists live customers of the business, newest first, as full CustomerResponses', async () => {
    const c = await catalogue()
    const other = await sharedOrganisation(ctx, 'another')
    await createCustomer(other.core, { name: 'Foreign Acme' })
    const response = await c.core({ url: CUSTOMERS })
    const body = response.json()
    expect(body).toMatchObject({
      statusCode: 'OK',
      totalCount: 5,
      count: 5,
      page: 1,
      finalPage: 1,
      pageSize: 20,
      hasMore: false,
    })
    expect(body.data.map((i: Item) => i.name)).toEqual([
      'Erin',
      'Dave 100%_Real',
      'Carol Smith',
      'Bolt & Nut',
      'Acme Supplies',
    ])
    const acme = body.data.find((i: Item) => i.id === c.acme.id)
    expect(acme).toEqual((await c.core({ url: `${CUSTOMERS}/${c.acme.id}` })).json().data)
    expect(acme.contacts.map((x: { firstName: string }) => x.firstName)).toEqual(['Janet', 'Jane'])
  })

  it('includes each customer’s attachments (file entries with the file details, link entries)', async () => {
    const c = await catalogue()
    const schema = await schemaOf(ctx, c.org.businessId)
    const fileId = randomUUID()
    const db = ctx.database.db.withSchema(schema)
    await db
      .insertInto('files')
      .values({
        id: fileId,
        business_id: c.org.businessId,
        storage_key: `test/${fileId}`,
        file_name: 'contract.pdf',
        content_type: 'application/pdf',
        size_bytes: 1234,
        sha256: 'x',
      })
      .execute()
    await db
      .insertInto('customer_attachments')
      .values([
        {
          id: randomUUID(),
          business_id: c.org.businessId,
          customer_id: c.acme.id,
          type: 'File',
          file_id: fileId,
          title: 'Contract',
        },
        {
          id: randomUUID(),
          business_id: c.org.businessId,
          customer_id: c.carol.id,
          type: 'Link',
          url: 'https://example.com/x',
          title: 'Site',
        },
      ])
      .execute()
    const items = (await c.core({ url: CUSTOMERS })).json().data as (Item & {
      attachments: Record<string, unknown>[]
    })[]
    const byId = new Map(items.map((i) => [i.id, i]))
    expect(byId.get(c.acme.id)?.attachments).toEqual([
      {
        id: expect.any(String),
        type: 'File',
        fileId,
        fileName: 'contract.pdf',
        contentType: 'application/pdf',
        sizeBytes: 1234,
        title: 'Contract',
        url: null,
        dateCreated: expect.any(String),
      },
    ])
    expect(byId.get(c.carol.id)?.attachments).toEqual([
      expect.objectContaining({
        type: 'Link',
        fileId: null,
        fileName: null,
        sizeBytes: null,
        url: 'https://example.com/x',
      }),
    ])
    expect(byId.get(c.erin.id)?.attachments).toEqual([])
  })

  it('filters on fields, enums (name or number), group, dates and metadata/<key>', async () => {
    const c = await catalogue()
    const sorted = async (query: string) => (await names(c.core, `${query}&$orderby=name`)).join(' | ')
    expect(await sorted("$filter=status eq 'inactive'")).toBe('Bolt & Nut')
    expect(await sorted('$filter=type eq 1 and status eq 0')).toBe('Acme Supplies')
    expect(await sorted(`$filter=customerGroupId eq ${c.trade.id}`)).toBe('Acme Supplies | Bolt & Nut')
    expect(await sorted('$filter=customerGroupId eq null')).toBe('Carol Smith | Dave 100%_Real | Erin')
    expect(await sorted("$filter=metadata/erpId eq 'C-2'")).toBe('Bolt & Nut')
    expect(await sorted("$filter=metadata/region in ('West','East')")).toBe('Acme Supplies | Carol Smith')
    expect(await sorted("$filter=metadata/region ne 'West'")).toBe(
      'Bolt & Nut | Carol Smith | Dave 100%_Real | Erin',
    )
    expect(await sorted("$filter=endswith(email,'.example') and not contains(email,'acme')")).toBe(
      'Carol Smith',
    )
    expect(await sorted("$filter=code eq 'CUS-000002'")).toBe('Bolt & Nut')
    expect(await sorted('$filter=phoneNumber ne null')).toBe('Bolt & Nut')
    expect(
      await sorted(
        `$filter=dateCreated ge ${c.carol.dateCreated} and dateModified le ${new Date(Date.now() + 60_000).toISOString()}`,
      ),
    ).toBe('Carol Smith | Dave 100%_Real | Erin')
    for (const bad of ['colour eq 1', "status eq 'Sleeping'", 'metadata eq 1', 'customerGroupId eq 5']) {
      const response = await c.core({ url: `${CUSTOMERS}?$filter=${encodeURIComponent(bad)}` })
      expect(response.statusCode, bad).toBe(400)
      expect(fieldsOf(response)).toEqual(['$filter'])
    }
    const badOrder = await c.core({ url: `${CUSTOMERS}?$orderby=metadata/erpId` })
    expect(badOrder.statusCode).toBe(400)
    expect(fieldsOf(badOrder)).toEqual(['$orderby'])
  })

  it('sorts by any listed field, in either direction', async () => {
    const c = await catalogue()
    expect(await names(c.core, '$orderby=name desc')).toEqual([
      'Erin',
      'Dave 100%_Real',
      'Carol Smith',
      'Bolt & Nut',
      'Acme Supplies',
    ])
    expect(await names(c.core, '$orderby=status desc, code asc')).toEqual([
      'Bolt & Nut',
      'Acme Supplies',
      'Carol Smith',
      'Dave 100%_Real',
      'Erin',
    ])
    expect(await names(c.core, '$orderby=dateCreated')).toEqual([
      'Acme Supplies',
      'Bolt & Nut',
      'Carol Smith',
      'Dave 100%_Real',
      'Erin',
    ])
  })

  it('searches name, email, phone number and contact names, one row per customer', async () => {
    const c = await catalogue()
    const search = async (text: string) => {
      const response = await c.core({ url: `${CUSTOMERS}?$search=${encodeURIComponent(text)}&$orderby=name` })
      const body = response.json()
      expect(body.totalCount).toBe(body.data.length)
      return body.data.map((i: Item) => i.name)
    }
    expect(await search('ACME')).toEqual(['Acme Supplies'])
    expect(await search('mail.example')).toEqual(['Carol Smith'])
    expect(await search('555 0100')).toEqual(['Bolt & Nut'])
    // Two matching contacts on one customer still give one row.
    expect(await search('doe')).toEqual(['Acme Supplies'])
    expect(await search('Janet Doe')).toEqual(['Acme Supplies'])
    expect(await search('quill')).toEqual(['Dave 100%_Real'])
    expect(await search('100%_')).toEqual(['Dave 100%_Real'])
    expect(await search('%')).toEqual(['Dave 100%_Real'])
    expect(await search('nobody')).toEqual([])
    const combined = await c.core({
      url: `${CUSTOMERS}?$search=n&$filter=${encodeURIComponent("type eq 'Company'")}&$orderby=name`,
    })
    expect(combined.json().data.map((i: Item) => i.name)).toEqual(['Acme Supplies', 'Bolt & Nut'])
  })

  it('keeps no pending list on the search indexes, so a search never scans one (migration 20261126090000)', async () => {
    const c = await catalogue()
    const schema = await schemaOf(ctx, c.org.businessId)
    const { rows } = await sql<{ relname: string; reloptions: string[] | null }>`
      SELECT i.relname, i.reloptions FROM pg_class i JOIN pg_namespace n ON n.oid = i.relnamespace
       WHERE n.nspname = ${schema} AND i.relname LIKE 'customer%trgm_idx' ORDER BY i.relname`.execute(
      ctx.database.db,
    )
    expect(rows.map((r) => [r.relname, r.reloptions])).toEqual(
      [
        'customer_contacts_name_trgm_idx',
        'customers_email_trgm_idx',
        'customers_name_trgm_idx',
        'customers_phone_trgm_idx',
      ].map((name) => [name, ['fastupdate=off']]),
    )
  })

  it('pages consistently: totalCount, finalPage and hasMore, no item twice or missed', async () => {
    const c = await catalogue()
    const page = async (n: number, query = '') =>
      (await c.core({ url: `${CUSTOMERS}?PageSize=2&Page=${n}${query}` })).json()
    const first = await page(1)
    expect(first).toMatchObject({
      count: 2,
      totalCount: 5,
      page: 1,
      finalPage: 3,
      pageSize: 2,
      hasMore: true,
    })
    const second = await page(2)
    expect(second).toMatchObject({ count: 2, page: 2, hasMore: true })
    const third = await page(3)
    expect(third).toMatchObject({ count: 1, page: 3, finalPage: 3, hasMore: false })
    const ids = [...first.data, ...second.data, ...third.data].map((i: Item) => i.id)
    expect(new Set(ids).size).toBe(5)
    const beyond = await page(9)
    expect(beyond).toMatchObject({ count: 0, totalCount: 5, page: 9, finalPage: 3, hasMore: false })
    // With a contact-name search that matches two contacts of one customer, paging stays exact.
    const searched = await page(1, '&$search=j')
    expect(searched).toMatchObject({ totalCount: 1, count: 1, finalPage: 1 })
    for (const bad of ['PageSize=101', 'PageSize=0', 'Page=0']) {
      const response = await c.core({ url: `${CUSTOMERS}?${bad}` })
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response)).toEqual([bad.split('=')[0]])
    }
  })
})
