import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { addMember, fieldsOf } from '../../../../test/fixtures.js'
import { ownerSession, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { CUSTOMERS, createCustomer, createGroup, GROUPS, tracesOf } from '../customers/customers.fixtures.js'

const ctx = useTestContext()
// Tests that only add groups under names of their own share one organisation, and another for
// 404s; those that list or count every group register their own.
const owner = useOwnerSession(ctx)
const stranger = useOwnerSession(ctx)

describe('customer groups: create, read, replace', () => {
  it('creates a group and reads it back, alone and in the list', async () => {
    const { core, org } = await ownerSession(ctx)
    const created = await core({
      method: 'POST',
      url: GROUPS,
      payload: { name: '  Wholesale  ', description: 'Trade buyers' },
    })
    expect(created.statusCode).toBe(200)
    const group = created.json().data
    expect(created.json().statusCode).toBe('OK')
    expect(group).toEqual({
      id: expect.any(String),
      businessId: org.businessId,
      name: 'Wholesale',
      description: 'Trade buyers',
      customerCount: 0,
      dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      dateModified: expect.stringMatching(/Z$/),
    })
    expect((await core({ url: `${GROUPS}/${group.id}` })).json().data).toEqual(group)
    const list = (await core({ url: GROUPS })).json()
    expect(list).toMatchObject({ totalCount: 1, count: 1, page: 1, finalPage: 1, hasMore: false })
    expect(list.data).toEqual([group])
  })

  it('counts the live customers of each group', async () => {
    const { core } = owner
    const group = await createGroup(core)
    await createCustomer(core, { customerGroupId: group.id })
    const gone = await createCustomer(core, { customerGroupId: group.id })
    await createCustomer(core)
    await core({ method: 'DELETE', url: `${CUSTOMERS}/${gone.id}` })
    expect((await core({ url: `${GROUPS}/${group.id}` })).json().data.customerCount).toBe(1)
    const listed = (await core({ url: GROUPS })).json().data as { id: string; customerCount: number }[]
    expect(listed.find((g) => g.id === group.id)?.customerCount).toBe(1)
  })

  it('replaces a group with PUT: an omitted description becomes null', async () => {
    const { core } = owner
    const group = (
      await core({ method: 'POST', url: GROUPS, payload: { name: 'Retail', description: 'x' } })
    ).json().data
    const updated = await core({
      method: 'PUT',
      url: `${GROUPS}/${group.id}`,
      payload: { name: 'Retail B2C' },
    })
    expect(updated.statusCode).toBe(200)
    expect(updated.json().data).toMatchObject({
      id: group.id,
      name: 'Retail B2C',
      description: null,
      customerCount: 0,
    })
    // Keeping its own name (in another case) is not a clash with itself.
    const again = await core({ method: 'PUT', url: `${GROUPS}/${group.id}`, payload: { name: 'RETAIL b2c' } })
    expect(again.json().data.name).toBe('RETAIL b2c')
  })

  it('refuses a duplicate name in the business, ignoring case (409 group_name_taken)', async () => {
    const { core } = owner
    await createGroup(core, 'VIP')
    const other = await createGroup(core, 'Regular')
    const duplicate = await core({ method: 'POST', url: GROUPS, payload: { name: 'vip' } })
    expect(duplicate.statusCode).toBe(409)
    expect(duplicate.json().code).toBe('group_name_taken')
    const renamed = await core({ method: 'PUT', url: `${GROUPS}/${other.id}`, payload: { name: 'Vip' } })
    expect(renamed.statusCode).toBe(409)
    expect(renamed.json().code).toBe('group_name_taken')
    // Another organisation may use the same name.
    const elsewhere = stranger
    expect((await elsewhere.core({ method: 'POST', url: GROUPS, payload: { name: 'VIP' } })).statusCode).toBe(
      200,
    )
  })

  it('names each invalid field in a 400', async () => {
    const { core } = owner
    const missing = await core({ method: 'POST', url: GROUPS, payload: { description: 'd'.repeat(501) } })
    expect(missing.statusCode).toBe(400)
    expect(fieldsOf(missing).sort()).toEqual(['description', 'name'])
    const long = await core({ method: 'POST', url: GROUPS, payload: { name: 'n'.repeat(101) } })
    expect(fieldsOf(long)).toEqual(['name'])
    const blank = await core({ method: 'POST', url: GROUPS, payload: { name: '   ' } })
    expect(blank.statusCode).toBe(400)
    expect(fieldsOf(blank)).toEqual(['name'])
    const badId = await core({ url: `${GROUPS}/not-a-uuid` })
    expect(badId.statusCode).toBe(400)
    expect(fieldsOf(badId)).toEqual(['customerGroupId'])
  })

  it('gives 404 for unknown ids and for the groups of another organisation', async () => {
    const { core } = owner
    const other = stranger
    const foreign = await createGroup(other.core)
    const groups = async () => (await core({ url: GROUPS })).json().totalCount as number
    const before = await groups()
    for (const id of [foreign.id, randomUUID()]) {
      for (const request of [
        { url: `${GROUPS}/${id}` },
        { method: 'PUT' as const, url: `${GROUPS}/${id}`, payload: { name: 'Mine now' } },
        { method: 'DELETE' as const, url: `${GROUPS}/${id}` },
      ]) {
        const response = await core(request)
        expect(response.statusCode).toBe(404)
        expect(response.json().code).toBe('customer_group_not_found')
      }
    }
    expect(await groups()).toBe(before)
    expect((await other.core({ url: `${GROUPS}/${foreign.id}` })).json().data.name).toBe(foreign.name)
  })
})

describe('customer groups: list parameters', () => {
  it('filters, searches, sorts and pages in SQL', async () => {
    const { core } = await ownerSession(ctx)
    for (const [name, description] of [
      ['Alpha', 'first'],
      ['Bravo', 'wholesale buyers'],
      ['Charlie', null],
      ['Delta', 'Wholesale partners'],
    ]) {
      await core({ method: 'POST', url: GROUPS, payload: { name, description } })
    }
    const names = async (query: string) => {
      const response = await core({ url: `${GROUPS}?${query}` })
      expect(response.statusCode).toBe(200)
      return response.json().data.map((g: { name: string }) => g.name)
    }
    expect(await names('')).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta'])
    expect(await names('$orderby=name desc')).toEqual(['Delta', 'Charlie', 'Bravo', 'Alpha'])
    expect(await names('$search=WHOLESALE')).toEqual(['Bravo', 'Delta'])
    expect(await names("$filter=startswith(name,'c') or description eq null")).toEqual(['Charlie'])
    expect(await names(`$filter=dateCreated le ${new Date(Date.now() + 60_000).toISOString()}`)).toHaveLength(
      4,
    )
    const page2 = (await core({ url: `${GROUPS}?PageSize=3&Page=2` })).json()
    expect(page2).toMatchObject({
      count: 1,
      totalCount: 4,
      page: 2,
      finalPage: 2,
      pageSize: 3,
      hasMore: false,
    })
    const bad = await core({ url: `${GROUPS}?$filter=colour eq 'red'` })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad)).toEqual(['$filter'])
  })
})

describe('customer groups: delete', () => {
  it('soft-deletes an empty group; its name is free again', async () => {
    const { core } = await ownerSession(ctx)
    const group = await createGroup(core, 'Seasonal')
    const deleted = await core({ method: 'DELETE', url: `${GROUPS}/${group.id}` })
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json().data).toBe(true)
    expect((await core({ url: `${GROUPS}/${group.id}` })).statusCode).toBe(404)
    expect((await core({ method: 'DELETE', url: `${GROUPS}/${group.id}` })).statusCode).toBe(404)
    expect((await core({ url: GROUPS })).json().totalCount).toBe(0)
    expect((await core({ method: 'POST', url: GROUPS, payload: { name: 'seasonal' } })).statusCode).toBe(200)
    const assign = await core({
      method: 'POST',
      url: CUSTOMERS,
      payload: { name: 'X', customerGroupId: group.id },
    })
    expect(assign.statusCode).toBe(400)
    expect(fieldsOf(assign)).toEqual(['customerGroupId'])
  })

  it('refuses a group that still has customers (409 group_in_use)', async () => {
    const { core } = owner
    const group = await createGroup(core)
    await createCustomer(core, { customerGroupId: group.id })
    const response = await core({ method: 'DELETE', url: `${GROUPS}/${group.id}` })
    expect(response.statusCode).toBe(409)
    expect(response.json().code).toBe('group_in_use')
    expect((await core({ url: `${GROUPS}/${group.id}` })).json().data.customerCount).toBe(1)
  })

  it('moves the customers to another group and deletes, in one go', async () => {
    const { core } = owner
    const from = await createGroup(core, 'Old')
    const to = await createGroup(core, 'New')
    const a = await createCustomer(core, { name: 'A', customerGroupId: from.id })
    const b = await createCustomer(core, { name: 'B', customerGroupId: from.id })
    const response = await core({
      method: 'DELETE',
      url: `${GROUPS}/${from.id}?moveCustomersTo=${to.id.toUpperCase()}`,
    })
    expect(response.statusCode).toBe(200)
    expect((await core({ url: `${GROUPS}/${from.id}` })).statusCode).toBe(404)
    expect((await core({ url: `${GROUPS}/${to.id}` })).json().data.customerCount).toBe(2)
    for (const customer of [a, b]) {
      const now = (await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data
      expect(now).toMatchObject({ customerGroupId: to.id, customerGroup: { id: to.id, name: 'New' } })
      const traces = await tracesOf(core, customer.id)
      expect(traces[0]).toMatchObject({
        type: 'CustomerUpdated',
        source: 'System',
        note: expect.stringContaining('customerGroupId'),
      })
    }
  })

  it('leaves the customers without a group with moveCustomersTo=none', async () => {
    const { core } = owner
    const group = await createGroup(core)
    const customer = await createCustomer(core, { customerGroupId: group.id })
    const response = await core({ method: 'DELETE', url: `${GROUPS}/${group.id}?moveCustomersTo=None` })
    expect(response.statusCode).toBe(200)
    const now = (await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data
    expect(now).toMatchObject({ customerGroupId: null, customerGroup: null })
  })

  it('rejects a bad moveCustomersTo and changes nothing', async () => {
    const { core } = owner
    const other = stranger
    const foreign = await createGroup(other.core)
    const group = await createGroup(core)
    const customer = await createCustomer(core, { customerGroupId: group.id })
    for (const target of [group.id, foreign.id, randomUUID(), 'nowhere']) {
      const response = await core({
        method: 'DELETE',
        url: `${GROUPS}/${group.id}?moveCustomersTo=${target}`,
      })
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response)).toEqual(['moveCustomersTo'])
    }
    expect((await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.customerGroupId).toBe(group.id)
    expect((await core({ url: `${GROUPS}/${group.id}` })).json().data.customerCount).toBe(1)
  })
})

describe('customer groups: permissions', () => {
  it('lets a Member (view only) read but not create, replace or delete (403)', async () => {
    const { core, org } = owner
    const group = await createGroup(core)
    const member = await addMember(ctx, org.businessId)
    expect((await member.core({ url: GROUPS })).statusCode).toBe(200)
    expect((await member.core({ url: `${GROUPS}/${group.id}` })).statusCode).toBe(200)
    for (const request of [
      { method: 'POST' as const, url: GROUPS, payload: { name: 'Nope' } },
      { method: 'PUT' as const, url: `${GROUPS}/${group.id}`, payload: { name: 'Nope' } },
      { method: 'DELETE' as const, url: `${GROUPS}/${group.id}` },
    ]) {
      const response = await member.core(request)
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('permission_denied')
    }
    expect((await ctx.core.inject({ url: GROUPS })).statusCode).toBe(401)
  })
})
