import { describe, expect, it } from 'vitest'
import { addRole, addUser, createApiKey } from '../../../../test/fixtures.js'
import { type Core, coreAs, uniqueEmail, useTestContext } from '../../../../test/harness.js'
import { changeRole, createRole, ownerAndOrganization } from './team.fixtures.js'

const ctx = useTestContext()

const invite = (core: Core, payload: object) =>
  core({ method: 'POST', url: '/api/team/invitations', payload })
const remove = (core: Core, userId: string) => core({ method: 'DELETE', url: `/api/team/members/${userId}` })

async function setup() {
  const { owner, businessId, organizationId } = await ownerAndOrganization(ctx)
  const keyOf = async (scopes?: string) =>
    coreAs(ctx, { apiKey: await createApiKey(ctx, owner.signedIn.accessToken, businessId, { scopes }) })
  return {
    owner,
    businessId,
    organizationId,
    keys: [await keyOf(), await keyOf('{"TeamAndRoles": 7, "Customers": 1}')],
  }
}

const refusedAsKey = (response: { statusCode: number; json(): unknown }, why: string) => {
  expect(response.statusCode, why).toBe(403)
  expect(response.json(), why).toMatchObject({
    code: 'api_key_not_allowed',
    message: expect.stringContaining(why),
  })
}

describe("an owner's API key", () => {
  it('has the owner’s rights but not the standing: it cannot make, unmake or remove an owner', async () => {
    const { owner, businessId, organizationId, keys } = await setup()
    const member = await addUser(ctx, businessId)
    const coOwner = await addUser(ctx, businessId, { role: 'Owner' })
    for (const key of keys) {
      refusedAsKey(
        await invite(key, { email: uniqueEmail('o'), role: 'Owner' }),
        'An API key cannot invite an owner',
      )
      refusedAsKey(
        await changeRole(key, member.userId, { role: 'Owner' }),
        'An API key cannot grant or take away the Owner role',
      )
      refusedAsKey(
        await changeRole(key, coOwner.userId, { role: 'Member' }),
        'An API key cannot grant or take away the Owner role',
      )
      refusedAsKey(await remove(key, coOwner.userId), 'An API key cannot remove an owner')
    }
    // What it may do stays: invite and change roles within its own rights.
    expect((await invite(keys[0] as Core, { email: uniqueEmail('m'), role: 'Admin' })).statusCode).toBe(200)
    const viewer = await addRole(ctx, organizationId, { Customers: 1 })
    const within = await invite(keys[1] as Core, {
      email: uniqueEmail('m'),
      role: 'Custom',
      customRoleId: viewer,
    })
    expect(within.statusCode).toBe(200)
    // A scoped key invites no one with more than its scopes: Member views every module.
    const beyond = await invite(keys[1] as Core, { email: uniqueEmail('m'), role: 'Member' })
    expect(beyond.statusCode).toBe(403)
    expect(beyond.json().code).toBe('permission_exceeds_caller')
    expect((await changeRole(keys[0] as Core, member.userId, { role: 'Admin' })).statusCode).toBe(200)
    // A scoped key grants no rights beyond its scopes.
    const wider = await changeRole(keys[1] as Core, member.userId, { role: 'Member' })
    expect(wider.statusCode).toBe(403)
    expect(wider.json().code).toBe('permission_exceeds_caller')
    // The owner, signed in, does each as before.
    expect((await invite(owner.core, { email: uniqueEmail('o'), role: 'Owner' })).statusCode).toBe(200)
    expect((await changeRole(owner.core, member.userId, { role: 'Owner' })).statusCode).toBe(200)
    expect((await changeRole(owner.core, coOwner.userId, { role: 'Member' })).statusCode).toBe(200)
  })

  it('creates roles only within its own scopes, as any non-owner does', async () => {
    const { owner, keys } = await setup()
    const scoped = keys[1] as Core
    const beyond = await createRole(scoped, { name: 'Billing clerk', permissions: { Billing: 7 } })
    expect(beyond.statusCode).toBe(403)
    expect(beyond.json().code).toBe('permission_exceeds_caller')
    expect((await createRole(scoped, { name: 'Viewer', permissions: { Customers: 1 } })).statusCode).toBe(200)
    expect(
      (await createRole(owner.core, { name: 'Billing clerk', permissions: { Billing: 7 } })).statusCode,
    ).toBe(200)
  })
})
