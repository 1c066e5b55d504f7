import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import { addRole, createApiKey, organizationIdOf } from '../fixtures.js'
import { ownerSession, type TestContext } from '../harness.js'

/** The other organisation (B): records of each kind, and the text that must never reach A. */
export interface Victim {
  /** B's id for a path parameter of that name (a random id where B has nothing of that kind). */
  idFor(name: string): string
  /** Names, emails and ids of B that no answer to A may contain. */
  secrets: string[]
  /** B's records are all still there, and B's key still works. */
  expectIntact(): Promise<void>
}

export async function victimOrganisation(ctx: TestContext): Promise<Victim> {
  const b = await ownerSession(ctx)
  const marker = `Victim${randomUUID().slice(0, 8)}`
  const created = async (url: string, payload: object) => {
    const response = await b.core({ method: 'POST', url, payload })
    if (response.statusCode !== 200) throw new Error(`victim ${url}: ${response.statusCode} ${response.body}`)
    return (response.json() as { data: { id: string } }).data.id
  }
  const groupId = await created('/api/v1/CustomerGroups', { name: `${marker} Group` })
  const customerId = await created('/api/v1/Customers', {
    name: `${marker} Customer`,
    email: `${marker.toLowerCase()}@example.com`,
    customerGroupId: groupId,
  })
  const contactId = await created(`/api/v1/Customers/${customerId}/contacts`, {
    firstName: `${marker}Contact`,
    lastName: 'B',
  })
  const roleId = await addRole(ctx, await organizationIdOf(ctx, b.org.businessId), { Orders: 1 })
  const apiKey = await createApiKey(ctx, b.signedIn.accessToken, b.org.businessId, { label: `${marker} key` })
  const keys = await ctx.global.inject({
    url: '/api/auth/tokens',
    headers: { authorization: `Bearer ${b.signedIn.accessToken}` },
  })
  const keyId = (keys.json() as { data: { id: string }[] }).data[0]?.id ?? randomUUID()

  const ids: Record<string, string> = {
    businessid: b.org.businessId,
    organizationid: await organizationIdOf(ctx, b.org.businessId),
    userid: b.org.userId,
    roleid: roleId,
    customerid: customerId,
    customergroupid: groupId,
    contactid: contactId,
    id: keyId,
  }
  return {
    idFor: (name) => ids[name.toLowerCase()] ?? customerId,
    secrets: [marker, marker.toLowerCase(), b.org.email, apiKey],
    async expectIntact() {
      const asB = async (url: string) => (await b.core({ url })).statusCode
      expect(await asB(`/api/v1/Customers/${customerId}`)).toBe(200)
      expect(await asB(`/api/v1/CustomerGroups/${groupId}`)).toBe(200)
      const withKey = await ctx.core.inject({ url: '/api/me', headers: { 'x-dispatch-api-key': apiKey } })
      expect(withKey.statusCode).toBe(200)
      const customer = (await b.core({ url: `/api/v1/Customers/${customerId}` })).json() as {
        data: { contacts?: { id: string }[] }
      }
      expect(customer.data.contacts?.map((c) => c.id)).toContain(contactId)
    },
  }
}
