import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  addRole,
  addUser,
  organizationIdOf,
  PAST_STATE_TTL,
  sleep,
} from '../../../../test/fixtures.js'
import { type Core, useTestContext } from '../../../../test/harness.js'
import { changeRole, NO_PERMISSIONS, ownerAndOrganization } from './team.fixtures.js'

const ctx = useTestContext()

const meOf = async (core: Core) => (await core({ url: '/api/me' })).json().data

describe('PUT /api/team/members/{userId}/role', () => {
  it("changes a member's role; their rights follow within a second", async () => {
    const { owner, businessId } = await ownerAndOrganization(ctx)
    const member = await addMember(ctx, businessId)
    expect((await meOf(member.core)).permissions.Customers).toBe(1)
    const response = await changeRole(owner.core, member.userId, { role: 'admin' })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toMatchObject({ userId: member.userId, role: 'Admin', customRole: null })
    await sleep(PAST_STATE_TTL)
    const me = await meOf(member.core)
    expect(me).toMatchObject({ role: 'Admin', isOwner: false, customRole: null })
    expect(me.permissions).toMatchObject({ Customers: 7, TeamAndRoles: 7, Billing: 0 })
  })

  it('assigns a custom role: the member gets exactly its rights', async () => {
    const { owner, organizationId, businessId } = await ownerAndOrganization(ctx)
    const member = await addMember(ctx, businessId)
    const roleId = await addRole(ctx, organizationId, { Orders: 7, Shipments: 1 })
    const response = await changeRole(owner.core, member.userId, { role: 'Custom', customRoleId: roleId })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toMatchObject({ role: 'Custom', customRole: { id: roleId } })
    await sleep(PAST_STATE_TTL)
    const me = await meOf(member.core)
    expect(me).toMatchObject({ role: 'Custom', customRole: { id: roleId } })
    expect(me.permissions).toEqual({ ...NO_PERMISSIONS, Orders: 7, Shipments: 1 })
    // Their new rights apply to the team routes too: no TeamAndRoles at all now.
    expect((await member.core({ url: '/api/team/members' })).statusCode).toBe(403)
    // Back to a built-in role clears the custom role.
    const back = await changeRole(owner.core, member.userId, { role: 2 })
    expect(back.json().data).toMatchObject({ role: 'Member', customRole: null })
  })

  it('validates role and customRoleId, naming the field', async () => {
    const { owner, businessId } = await ownerAndOrganization(ctx)
    const member = await addMember(ctx, businessId)
    const other = await ownerAndOrganization(ctx)
    const foreignRole = await addRole(ctx, other.organizationId, { Orders: 1 })
    const ownRole = await addRole(ctx, await organizationIdOf(ctx, businessId), { Orders: 1 })
    for (const [payload, field] of [
      [{ role: 'Boss' }, 'role'],
      [{}, 'role'],
      [{ role: 'Custom' }, 'customRoleId'],
      [{ role: 'Custom', customRoleId: null }, 'customRoleId'],
      [{ role: 'Custom', customRoleId: 'not-a-uuid' }, 'customRoleId'],
      [{ role: 'Custom', customRoleId: randomUUID() }, 'customRoleId'],
      [{ role: 'Custom', customRoleId: foreignRole }, 'customRoleId'],
      [{ role: 'Admin', customRoleId: ownRole }, 'customRoleId'],
    ] as const) {
      const response = await changeRole(owner.core, member.userId, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().reasons.map((r: { field: string }) => r.field)).toEqual([field])
    }
    const badId = await owner.core({
      method: 'PUT',
      url: '/api/team/members/nope/role',
      payload: { role: 'Admin' },
    })
    expect(badId.json().reasons[0].field).toBe('userId')
  })

  it('answers 404 for an unknown user or a member of another organisation', async () => {
    const { owner } = await ownerAndOrganization(ctx)
    const other = await ownerAndOrganization(ctx)
    const stranger = await addUser(ctx, other.businessId)
    for (const userId of [randomUUID(), stranger.userId, other.owner.org.userId]) {
      const response = await changeRole(owner.core, userId, { role: 'Admin' })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('member_not_found')
    }
    const untouched = await ctx.database.db
      .selectFrom('global.memberships')
      .select('role')
      .where('user_id', '=', stranger.userId)
      .executeTakeFirstOrThrow()
    expect(untouched.role).toBe('Member')
  })

  it('lets only an owner grant or take away Owner', async () => {
    const { owner, businessId } = await ownerAndOrganization(ctx)
    const admin = await addMember(ctx, businessId, { role: 'Admin' })
    const member = await addUser(ctx, businessId)
    for (const [userId, role] of [
      [member.userId, 'Owner'],
      [admin.userId, 'Owner'],
      [owner.org.userId, 'Admin'],
    ] as const) {
      const response = await changeRole(admin.core, userId, { role })
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('owner_required')
    }
    // An admin may still manage non-owners.
    expect((await changeRole(admin.core, member.userId, { role: 'Admin' })).statusCode).toBe(200)
    // An owner may make a second owner, who may then demote the first.
    expect((await changeRole(owner.core, admin.userId, { role: 'Owner' })).statusCode).toBe(200)
    await sleep(PAST_STATE_TTL)
    const demoted = await changeRole(admin.core, owner.org.userId, { role: 'Member' })
    expect(demoted.statusCode).toBe(200)
  })

  it('never demotes the last active owner, even with an invited owner', async () => {
    const { owner, businessId } = await ownerAndOrganization(ctx)
    await addUser(ctx, businessId, { role: 'Owner', status: 'Invited' })
    const response = await changeRole(owner.core, owner.org.userId, { role: 'Admin' })
    expect(response.statusCode).toBe(409)
    expect(response.json().code).toBe('last_owner')
    const second = await addUser(ctx, businessId, { role: 'Owner' })
    expect((await changeRole(owner.core, owner.org.userId, { role: 'Admin' })).statusCode).toBe(200)
    await sleep(PAST_STATE_TTL)
    // Now an admin: may no longer touch the remaining owner.
    expect((await changeRole(owner.core, second.userId, { role: 'Admin' })).json().code).toBe(
      'owner_required',
    )
  })

  it('refuses a view-only Member (403)', async () => {
    const { owner, businessId } = await ownerAndOrganization(ctx)
    const member = await addMember(ctx, businessId)
    const response = await changeRole(member.core, owner.org.userId, { role: 'Member' })
    expect(response.statusCode).toBe(403)
    expect(response.json().code).toBe('permission_denied')
  })

  it('lets a custom role with TeamAndRoles Modify change roles, but not grant rights it lacks', async () => {
    const { organizationId, businessId } = await ownerAndOrganization(ctx)
    const managerRole = await addRole(ctx, organizationId, { TeamAndRoles: 3, Orders: 7 })
    const manager = await addMember(ctx, businessId, { role: 'Custom', customRoleId: managerRole })
    const member = await addUser(ctx, businessId)
    const ordersOnly = await addRole(ctx, organizationId, { Orders: 3 })
    const granted = await changeRole(manager.core, member.userId, {
      role: 'Custom',
      customRoleId: ordersOnly,
    })
    expect(granted.statusCode).toBe(200)
    expect(granted.json().data.customRole.id).toBe(ordersOnly)
    // Admin would hand out Customers, Billing-free or not, which the manager lacks.
    const refused = await changeRole(manager.core, member.userId, { role: 'Admin' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('permission_exceeds_caller')
    // Its own role adds nothing it lacks.
    const same = await changeRole(manager.core, member.userId, { role: 'Custom', customRoleId: managerRole })
    expect(same.statusCode).toBe(200)
  })
})
