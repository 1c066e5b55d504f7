import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  addUser,
  PAST_STATE_TTL,
  sharedOrganisation,
  sleep,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { createRole, deleteRole, NO_PERMISSIONS, updateRole } from './team.fixtures.js'

const ctx = useTestContext()
// The organisation whose role list a story counts registers its own; the rest share one.
useSharedOrganisation(ctx)

describe('PUT /api/team/roles/{roleId}', () => {
  it("replaces a role; its members' rights follow within a second", async () => {
    const owner = await sharedOrganisation(ctx)
    const role = (await createRole(owner.core, { name: 'Sales', permissions: { Customers: 7 } })).json().data
    const member = await addMember(ctx, owner.org.businessId, { role: 'Custom', customRoleId: role.id })
    expect((await member.core({ url: '/api/me' })).json().data.permissions.Customers).toBe(7)
    const response = await updateRole(owner.core, role.id, {
      name: 'sales',
      description: 'Customer-facing',
      permissions: { Customers: 1, Orders: 3 },
    })
    expect(response.statusCode).toBe(200)
    const updated = response.json().data
    expect(updated).toMatchObject({
      id: role.id,
      name: 'sales',
      description: 'Customer-facing',
      memberCount: 1,
    })
    expect(updated.permissions).toEqual({ ...NO_PERMISSIONS, Customers: 1, Orders: 3 })
    expect(updated.dateCreated).toBe(role.dateCreated)
    expect(new Date(updated.dateModified).getTime()).toBeGreaterThanOrEqual(
      new Date(role.dateModified).getTime(),
    )
    await sleep(PAST_STATE_TTL)
    const me = (await member.core({ url: '/api/me' })).json().data
    expect(me.permissions).toEqual({ ...NO_PERMISSIONS, Customers: 1, Orders: 3 })
    expect(me.customRole).toEqual({ id: role.id, name: 'sales' })
  })

  it('validates like create and refuses a name another role has', async () => {
    const { core } = await sharedOrganisation(ctx)
    const a = (await createRole(core, { name: 'Alpha', permissions: {} })).json().data
    await createRole(core, { name: 'Beta', permissions: {} })
    const taken = await updateRole(core, a.id, { name: 'BETA', permissions: {} })
    expect(taken.statusCode).toBe(409)
    expect(taken.json().code).toBe('role_name_taken')
    expect((await updateRole(core, a.id, { name: 'admin', permissions: {} })).json().code).toBe(
      'role_name_taken',
    )
    const invalid = await updateRole(core, a.id, { name: 'Alpha', permissions: { Nope: 1 } })
    expect(invalid.json().reasons).toEqual([{ field: 'permissions.Nope', message: expect.any(String) }])
    const badId = await updateRole(core, 'x', { name: 'Alpha', permissions: {} })
    expect(badId.json().reasons[0].field).toBe('roleId')
  })

  it("answers 404 for an unknown role or another organisation's", async () => {
    const owner = await sharedOrganisation(ctx)
    const other = await ownerSession(ctx)
    const theirs = (await createRole(other.core, { name: 'Theirs', permissions: { Orders: 1 } })).json().data
    for (const id of [randomUUID(), theirs.id]) {
      const response = await updateRole(owner.core, id, { name: 'Mine', permissions: {} })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('role_not_found')
    }
    const still = (await other.core({ url: '/api/team/roles' })).json().data[3]
    expect(still).toMatchObject({ name: 'Theirs', permissions: { Orders: 1 } })
  })
})

describe('DELETE /api/team/roles/{roleId}', () => {
  it('deletes a role no member holds; a held role is 409 role_in_use', async () => {
    const owner = await ownerSession(ctx)
    const role = (await createRole(owner.core, { name: 'Temp', permissions: {} })).json().data
    const holder = await addUser(ctx, owner.org.businessId, { role: 'Custom', customRoleId: role.id })
    const inUse = await deleteRole(owner.core, role.id)
    expect(inUse.statusCode).toBe(409)
    expect(inUse.json().code).toBe('role_in_use')
    await owner.core({
      method: 'PUT',
      url: `/api/team/members/${holder.userId}/role`,
      payload: { role: 'Member' },
    })
    const deleted = await deleteRole(owner.core, role.id)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json().data).toBe(true)
    expect((await deleteRole(owner.core, role.id)).statusCode).toBe(404)
    expect((await owner.core({ url: '/api/team/roles' })).json().data).toHaveLength(3)
  })

  it("answers 404 for another organisation's role and leaves it alone", async () => {
    const owner = await sharedOrganisation(ctx)
    const other = await ownerSession(ctx)
    const theirs = (await createRole(other.core, { name: 'Theirs', permissions: {} })).json().data
    const response = await deleteRole(owner.core, theirs.id)
    expect(response.statusCode).toBe(404)
    expect((await other.core({ url: '/api/team/roles' })).json().data).toHaveLength(4)
  })
})
