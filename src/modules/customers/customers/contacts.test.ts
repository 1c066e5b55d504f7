import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  businessSession,
  fieldsOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { CUSTOMERS, createCustomer, tracesOf } from './customers.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

const contactsUrl = (customerId: string, contactId?: string) =>
  `${CUSTOMERS}/${customerId}/contacts${contactId ? `/${contactId}` : ''}`

type Contact = { id: string; firstName: string; isPrimary: boolean }

describe('customer contacts', () => {
  it('adds, replaces and removes a contact, each with a trace', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core)
    const created = await core({
      method: 'POST',
      url: contactsUrl(customer.id),
      payload: {
        firstName: ' Jane ',
        lastName: 'Doe',
        email: 'jane@acme.example',
        phoneNumber: '082',
        role: 'Buyer',
      },
    })
    expect(created.statusCode).toBe(200)
    const contact = created.json().data
    expect(contact).toEqual({
      id: expect.any(String),
      customerId: customer.id,
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@acme.example',
      phoneNumber: '082',
      role: 'Buyer',
      isPrimary: false,
      dateCreated: expect.any(String),
      dateModified: expect.any(String),
    })
    const replaced = await core({
      method: 'PUT',
      url: contactsUrl(customer.id, contact.id),
      payload: { firstName: 'Janet' },
    })
    expect(replaced.statusCode).toBe(200)
    expect(replaced.json().data).toMatchObject({
      id: contact.id,
      firstName: 'Janet',
      lastName: null,
      email: null,
      role: null,
    })
    expect((await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.contacts).toEqual([
      replaced.json().data,
    ])

    const removed = await core({ method: 'DELETE', url: contactsUrl(customer.id, contact.id) })
    expect(removed.statusCode).toBe(200)
    expect(removed.json().data).toEqual(replaced.json().data)
    expect((await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.contacts).toEqual([])
    expect((await core({ method: 'DELETE', url: contactsUrl(customer.id, contact.id) })).statusCode).toBe(404)

    const traces = await tracesOf(core, customer.id)
    expect(traces.map((t) => [t.type, t.note])).toEqual([
      ['ContactRemoved', 'Janet'],
      ['ContactUpdated', 'Janet'],
      ['ContactAdded', 'Jane Doe'],
      ['CustomerCreated', null],
    ])
  })

  it('keeps at most one primary contact: setting one clears the others', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core, {
      contacts: [{ firstName: 'A', isPrimary: true }, { firstName: 'B' }],
    })
    const [a, b] = customer.contacts
    const c = (
      await core({
        method: 'POST',
        url: contactsUrl(customer.id),
        payload: { firstName: 'C', isPrimary: true },
      })
    ).json().data
    const primaries = async () =>
      ((await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.contacts as Contact[])
        .filter((x) => x.isPrimary)
        .map((x) => x.firstName)
    expect(await primaries()).toEqual(['C'])
    await core({
      method: 'PUT',
      url: contactsUrl(customer.id, b?.id),
      payload: { firstName: 'B', isPrimary: true },
    })
    expect(await primaries()).toEqual(['B'])
    // Replacing the primary with itself as primary keeps it primary.
    await core({
      method: 'PUT',
      url: contactsUrl(customer.id, b?.id),
      payload: { firstName: 'B2', isPrimary: true },
    })
    expect(await primaries()).toEqual(['B2'])
    await core({ method: 'PUT', url: contactsUrl(customer.id, b?.id), payload: { firstName: 'B2' } })
    expect(await primaries()).toEqual([])
    expect([a?.id, c.id]).toHaveLength(2)
  })

  it('leaves exactly one primary when several requests set one at the same time', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core)
    const responses = await Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((firstName) =>
        core({ method: 'POST', url: contactsUrl(customer.id), payload: { firstName, isPrimary: true } }),
      ),
    )
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200])
    const contacts = (await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.contacts as Contact[]
    expect(contacts).toHaveLength(5)
    expect(contacts.filter((x) => x.isPrimary)).toHaveLength(1)
  })

  it('names each invalid field in a 400', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core, { contacts: [{ firstName: 'A' }] })
    const contactId = customer.contacts[0]?.id ?? ''
    const body = {
      lastName: 'l'.repeat(101),
      email: 'x',
      phoneNumber: '1'.repeat(31),
      role: 'r'.repeat(101),
      isPrimary: 'maybe',
    }
    for (const request of [
      { method: 'POST' as const, url: contactsUrl(customer.id), payload: body },
      { method: 'PUT' as const, url: contactsUrl(customer.id, contactId), payload: body },
    ]) {
      const response = await core(request)
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response).sort()).toEqual([
        'email',
        'firstName',
        'isPrimary',
        'lastName',
        'phoneNumber',
        'role',
      ])
    }
    const blank = await core({ method: 'POST', url: contactsUrl(customer.id), payload: { firstName: ' ' } })
    expect(fieldsOf(blank)).toEqual(['firstName'])
    const badId = await core({
      method: 'PUT',
      url: contactsUrl(customer.id, 'x'),
      payload: { firstName: 'A' },
    })
    expect(fieldsOf(badId)).toEqual(['contactId'])
  })

  it("gives 404 for another customer's contact, another organisation's ids, unknown ids", async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const other = await sharedOrganisation(ctx, 'another')
    const mine = await createCustomer(core, { contacts: [{ firstName: 'Mine' }] })
    const sibling = await createCustomer(core, { contacts: [{ firstName: 'Sibling' }] })
    const foreign = await createCustomer(other.core, { contacts: [{ firstName: 'Foreign' }] })
    const siblingContact = sibling.contacts[0]?.id ?? ''
    const foreignContact = foreign.contacts[0]?.id ?? ''
    const cases: [string, string, string][] = [
      [mine.id, siblingContact, 'contact_not_found'],
      [mine.id, foreignContact, 'contact_not_found'],
      [mine.id, randomUUID(), 'contact_not_found'],
      [foreign.id, foreignContact, 'customer_not_found'],
      [randomUUID(), siblingContact, 'customer_not_found'],
    ]
    for (const [customerId, contactId, code] of cases) {
      for (const request of [
        {
          method: 'PUT' as const,
          url: contactsUrl(customerId, contactId),
          payload: { firstName: 'Hijack', isPrimary: true },
        },
        { method: 'DELETE' as const, url: contactsUrl(customerId, contactId) },
      ]) {
        const response = await core(request)
        expect(response.statusCode).toBe(404)
        expect(response.json().code).toBe(code)
      }
    }
    const add = await core({ method: 'POST', url: contactsUrl(foreign.id), payload: { firstName: 'X' } })
    expect(add.statusCode).toBe(404)
    expect((await core({ url: `${CUSTOMERS}/${sibling.id}` })).json().data.contacts).toEqual(sibling.contacts)
    expect((await other.core({ url: `${CUSTOMERS}/${foreign.id}` })).json().data.contacts).toEqual(
      foreign.contacts,
    )
  })

  it('lets a Member (view only) do nothing to contacts (403)', async () => {
    const { core, org } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core, { contacts: [{ firstName: 'A' }] })
    const contactId = customer.contacts[0]?.id ?? ''
    const member = await addMember(ctx, org.businessId)
    for (const request of [
      { method: 'POST' as const, url: contactsUrl(customer.id), payload: { firstName: 'B' } },
      { method: 'PUT' as const, url: contactsUrl(customer.id, contactId), payload: { firstName: 'B' } },
      { method: 'DELETE' as const, url: contactsUrl(customer.id, contactId) },
    ]) {
      expect((await member.core(request)).statusCode).toBe(403)
    }
  })
})
