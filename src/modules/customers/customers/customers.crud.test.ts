import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { addMember, createApiKey, fieldsOf } from '../../../../test/fixtures.js'
import { coreAs, ownerSession, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { CUSTOMERS, createCustomer, createGroup, tracesOf } from './customers.fixtures.js'

const ctx = useTestContext()
// Tests that only add customers and read them back share one organisation, and another for 404s.
const owner = useOwnerSession(ctx)
const stranger = useOwnerSession(ctx)

const ADDRESS = {
  fullAddress: '1 Dock Road, Cape Town',
  street: 'Dock Road',
  number: '1',
  city: 'Cape Town',
  country: 'ZA',
  latitude: -33.9,
  longitude: 18.4,
}

describe('POST /api/v1/Customers', () => {
  it('creates a customer with code, defaults, addresses, metadata and contacts, and a CustomerCreated trace', async () => {
    const { core, org } = await ownerSession(ctx)
    const group = await createGroup(core, 'Trade')
    const response = await core({
      method: 'POST',
      url: CUSTOMERS,
      payload: {
        name: '  Acme Supplies  ',
        email: 'buying@acme.example',
        phoneNumber: '+27 21 555 0199',
        customerGroupId: group.id,
        type: 'company',
        billingAddress: ADDRESS,
        metadata: { erpId: 'C-1042' },
        notes: 'Pays on 30 days',
        contacts: [
          { firstName: 'Jane', lastName: 'Doe', email: 'jane@acme.example', role: 'Buyer' },
          { firstName: 'John', isPrimary: true },
        ],
      },
    })
    expect(response.statusCode).toBe(200)
    const customer = response.json().data
    expect(customer).toEqual({
      id: expect.any(String),
      businessId: org.businessId,
      code: 'CUS-000001',
      name: 'Acme Supplies',
      email: 'buying@acme.example',
      phoneNumber: '+27 21 555 0199',
      customerGroupId: group.id,
      customerGroup: { id: group.id, name: 'Trade' },
      type: 'Company',
      status: 'Active',
      billingAddress: { ...ADDRESS, unit: null, suburb: null, province: null, postcode: null },
      shippingAddress: null,
      contacts: [
        expect.objectContaining({ firstName: 'John', lastName: null, isPrimary: true }),
        expect.objectContaining({ firstName: 'Jane', lastName: 'Doe', role: 'Buyer', isPrimary: false }),
      ],
      attachments: [],
      metadata: { erpId: 'C-1042' },
      notes: 'Pays on 30 days',
      dateCreated: expect.stringMatching(/Z$/),
      dateModified: expect.stringMatching(/Z$/),
    })
    expect(customer.contacts[0]).toEqual({
      id: expect.any(String),
      customerId: customer.id,
      firstName: 'John',
      lastName: null,
      email: null,
      phoneNumber: null,
      role: null,
      isPrimary: true,
      dateCreated: expect.any(String),
      dateModified: expect.any(String),
    })
    expect(await tracesOf(core, customer.id)).toEqual([
      expect.objectContaining({ type: 'CustomerCreated', source: 'System' }),
    ])
    expect((await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data).toEqual(customer)
  })

  it('numbers codes per business and applies defaults; enums accept any case or their number', async () => {
    const { core } = await ownerSession(ctx)
    const first = await createCustomer(core, { name: 'One' })
    expect(first).toMatchObject({
      code: 'CUS-000001',
      type: 'Individual',
      status: 'Active',
      metadata: {},
      contacts: [],
    })
    const second = await createCustomer(core, { name: 'Two', type: 1, status: 'INACTIVE' })
    expect(second).toMatchObject({ code: 'CUS-000002', type: 'Company', status: 'Inactive' })
    const other = await ownerSession(ctx)
    expect((await createCustomer(other.core)).code).toBe('CUS-000001')
  })

  it('gives parallel creations distinct codes', async () => {
    const { core } = owner
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createCustomer(core, { name: `P${i}` })),
    )
    expect(new Set(created.map((c) => c.code)).size).toBe(6)
  })

  it('names each invalid field in a 400', async () => {
    const { core } = owner
    const response = await core({
      method: 'POST',
      url: CUSTOMERS,
      payload: {
        email: 'not-an-email',
        phoneNumber: '1'.repeat(31),
        customerGroupId: 'nope',
        type: 'Robot',
        status: 7,
        billingAddress: { latitude: 91 },
        shippingAddress: { city: 'c'.repeat(101) },
        notes: 'n'.repeat(2001),
        metadata: { erpId: 'v'.repeat(1001) },
        contacts: [{ lastName: 'Doe', email: 'bad' }],
      },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('validation_failed')
    expect(fieldsOf(response).sort()).toEqual(
      [
        'name',
        'email',
        'phoneNumber',
        'customerGroupId',
        'type',
        'status',
        'billingAddress.latitude',
        'shippingAddress.city',
        'notes',
        'metadata.erpId',
        'contacts.0.firstName',
        'contacts.0.email',
      ].sort(),
    )
    const long = await core({ method: 'POST', url: CUSTOMERS, payload: { name: 'n'.repeat(201) } })
    expect(fieldsOf(long)).toEqual(['name'])
    const blank = await core({ method: 'POST', url: CUSTOMERS, payload: { name: '  ' } })
    expect(fieldsOf(blank)).toEqual(['name'])
  })

  it('checks the rules the schema cannot: metadata keys, number of keys, one primary contact', async () => {
    const { core } = owner
    const stored = async () => (await core({ url: CUSTOMERS })).json().totalCount as number
    const before = await stored()
    const longKey = 'k'.repeat(101)
    const keys = await core({
      method: 'POST',
      url: CUSTOMERS,
      payload: {
        name: 'A',
        metadata: { [longKey]: 'x', '': 'y' },
        contacts: [
          { firstName: 'A', isPrimary: true },
          { firstName: 'B', isPrimary: true },
        ],
      },
    })
    expect(keys.statusCode).toBe(400)
    expect(fieldsOf(keys).sort()).toEqual(['contacts', 'metadata', `metadata.${longKey}`].sort())
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))
    const tooMany = await core({ method: 'POST', url: CUSTOMERS, payload: { name: 'A', metadata: many } })
    expect(tooMany.statusCode).toBe(400)
    expect(fieldsOf(tooMany)).toEqual(['metadata'])
    expect(await stored()).toBe(before)
  })

  it("refuses a group that is not one of the business's live groups (400 customerGroupId)", async () => {
    const { core } = owner
    const other = stranger
    const foreign = await createGroup(other.core)
    for (const customerGroupId of [foreign.id, randomUUID()]) {
      const response = await core({ method: 'POST', url: CUSTOMERS, payload: { name: 'A', customerGroupId } })
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response)).toEqual(['customerGroupId'])
    }
  })
})

describe('GET /api/v1/Customers/{customerId}', () => {
  it("gives 404 for unknown ids and another organisation's customers, 400 for a malformed id", async () => {
    const { core } = owner
    const other = stranger
    const foreign = await createCustomer(other.core)
    for (const id of [foreign.id, randomUUID()]) {
      const response = await core({ url: `${CUSTOMERS}/${id}` })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('customer_not_found')
    }
    const bad = await core({ url: `${CUSTOMERS}/123` })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad)).toEqual(['customerId'])
  })

  it('matches the path in any letter case', async () => {
    const { core } = owner
    const customer = await createCustomer(core)
    expect((await core({ url: `/api/v1/customers/${customer.id.toUpperCase()}` })).json().data.id).toBe(
      customer.id,
    )
  })
})

describe('PUT /api/v1/Customers/{customerId}', () => {
  it('replaces every editable field: omitted ones become null or default; contacts stay; metadata kept unless sent', async () => {
    const { core } = owner
    const group = await createGroup(core)
    const customer = await createCustomer(core, {
      name: 'Acme',
      email: 'a@acme.example',
      phoneNumber: '123',
      customerGroupId: group.id,
      type: 'Company',
      status: 'Inactive',
      billingAddress: ADDRESS,
      shippingAddress: ADDRESS,
      notes: 'n',
      metadata: { erpId: '1' },
      contacts: [{ firstName: 'Jane' }],
    })
    const response = await core({
      method: 'PUT',
      url: `${CUSTOMERS}/${customer.id}`,
      payload: { name: 'Acme Two' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toMatchObject({
      id: customer.id,
      code: customer.code,
      name: 'Acme Two',
      email: null,
      phoneNumber: null,
      customerGroupId: null,
      customerGroup: null,
      type: 'Individual',
      status: 'Active',
      billingAddress: null,
      shippingAddress: null,
      notes: null,
      metadata: { erpId: '1' },
      contacts: [expect.objectContaining({ firstName: 'Jane' })],
    })
    const [trace] = await tracesOf(core, customer.id)
    expect(trace).toMatchObject({ type: 'CustomerUpdated', source: 'System' })
    expect(trace?.note).toBe(
      'Changed: name, email, phoneNumber, customerGroupId, type, status, notes, billingAddress, shippingAddress',
    )
    const withMetadata = await core({
      method: 'PUT',
      url: `${CUSTOMERS}/${customer.id}`,
      payload: { name: 'Acme Two', metadata: { region: 'West' } },
    })
    expect(withMetadata.json().data.metadata).toEqual({ region: 'West' })
    expect((await tracesOf(core, customer.id))[0]?.note).toBe('Changed: metadata')
  })

  it('writes nothing and leaves no trace when nothing changes', async () => {
    const { core } = owner
    const customer = await createCustomer(core, {
      name: 'Same',
      billingAddress: ADDRESS,
      metadata: { b: '2', a: '1' },
    })
    const response = await core({
      method: 'PUT',
      url: `${CUSTOMERS}/${customer.id}`,
      payload: { name: 'Same', billingAddress: { ...ADDRESS, unit: '' }, metadata: { a: '1', b: '2' } },
    })
    expect(response.json().data.dateModified).toBe(customer.dateModified)
    expect(await tracesOf(core, customer.id)).toHaveLength(1)
  })

  it('validates like create, and 404s unknown, foreign or deleted customers', async () => {
    const { core } = owner
    const other = stranger
    const customer = await createCustomer(core)
    const invalid = await core({
      method: 'PUT',
      url: `${CUSTOMERS}/${customer.id}`,
      payload: { email: 'x', customerGroupId: randomUUID() },
    })
    expect(invalid.statusCode).toBe(400)
    expect(fieldsOf(invalid).sort()).toEqual(['email', 'name'])
    const group = await core({
      method: 'PUT',
      url: `${CUSTOMERS}/${customer.id}`,
      payload: { name: 'A', customerGroupId: randomUUID() },
    })
    expect(fieldsOf(group)).toEqual(['customerGroupId'])
    const foreign = await createCustomer(other.core)
    const deleted = await createCustomer(core)
    await core({ method: 'DELETE', url: `${CUSTOMERS}/${deleted.id}` })
    for (const id of [foreign.id, deleted.id, randomUUID()]) {
      const response = await core({ method: 'PUT', url: `${CUSTOMERS}/${id}`, payload: { name: 'Mine' } })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('customer_not_found')
    }
    expect((await other.core({ url: `${CUSTOMERS}/${foreign.id}` })).json().data.name).toBe('Acme Ltd')
  })
})

describe('customers: credentials and permissions', () => {
  it('works with an API key; the key creator is recorded on traces', async () => {
    // Its own organisation: the key lists exactly the one customer it created.
    const { core, org, signedIn } = await ownerSession(ctx)
    const keyCore = coreAs(ctx, {
      apiKey: await createApiKey(ctx, signedIn.accessToken, org.businessId, { label: 'customers test' }),
    })
    const customer = await createCustomer(keyCore, { name: 'Via key' })
    expect((await keyCore({ url: CUSTOMERS })).json().data.map((c: { id: string }) => c.id)).toEqual([
      customer.id,
    ])
    const traces = (await core({ url: `${CUSTOMERS}/${customer.id}/traces` })).json().data
    expect(traces[0].createdBy).toEqual({ id: org.userId, displayName: 'Ada Lovelace' })
  })

  it('lets a Member (view only) read but not create, replace or delete (403)', async () => {
    const { core, org } = owner
    const customer = await createCustomer(core)
    const member = await addMember(ctx, org.businessId)
    expect((await member.core({ url: CUSTOMERS })).statusCode).toBe(200)
    expect((await member.core({ url: `${CUSTOMERS}/${customer.id}` })).statusCode).toBe(200)
    for (const request of [
      { method: 'POST' as const, url: CUSTOMERS, payload: { name: 'No' } },
      { method: 'PUT' as const, url: `${CUSTOMERS}/${customer.id}`, payload: { name: 'No' } },
      { method: 'DELETE' as const, url: `${CUSTOMERS}/${customer.id}` },
      {
        method: 'PUT' as const,
        url: `${CUSTOMERS}/delete-customers`,
        payload: { customerIds: [customer.id] },
      },
    ]) {
      const response = await member.core(request)
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('permission_denied')
    }
    expect((await ctx.core.inject({ url: CUSTOMERS })).statusCode).toBe(401)
  })
})

describe('OpenAPI', () => {
  it('documents every customer and customer group operation', async () => {
    const document = (await ctx.core.inject({ url: '/openapi.json' })).json()
    const operationIds = Object.values(
      document.paths as Record<string, Record<string, { operationId?: string }>>,
    )
      .flatMap((path) => Object.values(path).map((operation) => operation.operationId))
      .filter(Boolean)
    expect(operationIds).toEqual(
      expect.arrayContaining([
        'GetAllCustomerGroups',
        'CreateCustomerGroup',
        'GetCustomerGroup',
        'UpdateCustomerGroup',
        'DeleteCustomerGroup',
        'GetAllCustomers',
        'CreateCustomer',
        'GetCustomer',
        'UpdateCustomer',
        'DeleteCustomer',
        'BulkDeleteCustomers',
        'CreateCustomerContact',
        'UpdateCustomerContact',
        'DeleteCustomerContact',
        'GetActivityTraces',
        'AddActivityTrace',
        'AddCustomerMetadata',
      ]),
    )
  })
})
