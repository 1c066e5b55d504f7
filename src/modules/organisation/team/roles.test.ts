import { describe, expect, it } from 'vitest'
import { addMember, addRole, addUser, organizationIdOf } from '../../../../test/fixtures.js'
import { ownerSession, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { ROLE_PERMISSIONS } from '../../../security/permissions.js'
import { createRole, deleteRole, NO_PERMISSIONS, type RoleBody, updateRole } from './team.fixtures.js'

const ctx = useTestContext()
// Role names are unique per organisation, and every test below names its roles differently: they
// share one organisation (and a second one for what is per organisation). A test that reads the
// whole list of roles or their member counts registers its own.
const shared = useOwnerSession(ctx)
const other = useOwnerSession(ctx)

describe('GET /api/team/roles', () => {
  it('lists the built-in roles with their rights, then the custom roles, with member counts', async () => {
    const owner = await ownerSession(ctx)
    const member = await addMember(ctx, owner.org.businessId)
    const created = (await createRole(owner.core, { name: 'Dispatch', permissions: { Orders: 7 } })).json()
      .data
    await addUser(ctx, owner.org.businessId, { role: 'Custom', customRoleId: created.id, status: 'Invited' })
    // A view-only member may read the roles.
    const response = await member.core({ url: '/api/team/roles' })
    expect(response.statusCode).toBe(200)
    const roles = response.json().data
    expect(roles.map((r: { name: string }) => r.name)).toEqual(['Owner', 'Admin', 'Member', 'Dispatch'])
    expect(roles[0]).toEqual({
      id: null,
      name: 'Owner',
      description: expect.any(String),
      permissions: ROLE_PERMISSIONS.Owner,
      builtIn: true,
      memberCount: 1,
      dateCreated: null,
      dateModified: null,
    })
    expect(roles[1]).toMatchObject({
      builtIn: true,
      memberCount: 0,
      permissions: { ...ROLE_PERMISSIONS.Admin },
    })
    expect(roles[1].permissions.Billing).toBe(0)
    expect(roles[2]).toMatchObject({ memberCount: 1, permissions: ROLE_PERMISSIONS.Member })
    expect(roles[3]).toMatchObject({ id: created.id, builtIn: false, memberCount: 1 })
  })

  it("shows no other organisation's roles", async () => {
    const owner = await ownerSession(ctx)
    await createRole(other.core, { name: 'Theirs', permissions: {} })
    const roles = (await owner.core({ url: '/api/team/roles' })).json().data
    expect(roles).toHaveLength(3)
  })
})

describe('POST /api/team/roles', () => {
  it('creates a role, listing every module and accepting module names in any case', async () => {
    const { core } = shared
    const response = await createRole(core, {
      name: '  Warehouse  ',
      description: ' Picks and packs ',
      permissions: { orders: 3, TRANSFERORDERS: 7, Billing: 0 },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toEqual({
      id: expect.any(String),
      name: 'Warehouse',
      description: 'Picks and packs',
      permissions: { ...NO_PERMISSIONS, Orders: 3, TransferOrders: 7 },
      builtIn: false,
      memberCount: 0,
      dateCreated: expect.stringMatching(/^\d{4}-/),
      dateModified: expect.stringMatching(/^\d{4}-/),
    })
    const blank = await createRole(core, { name: 'Nobody', description: '  ', permissions: {} })
    expect(blank.json().data).toMatchObject({ description: null, permissions: NO_PERMISSIONS })
  })

  it('accepts a module by its number (M3 = Customers) and stores and shows it by name', async () => {
    const { core, org } = shared
    const response = await createRole(core, {
      name: 'By number',
      permissions: { '3': 1, '10': 7, orders: 2 },
    })
    expect(response.statusCode, response.body).toBe(200)
    const role = response.json().data
    expect(role.permissions).toEqual({ ...NO_PERMISSIONS, Customers: 1, Settings: 7, Orders: 2 })
    const listed = (await core({ url: '/api/team/roles' })).json().data
    expect(listed.find((r: { id: string | null }) => r.id === role.id).permissions).toEqual(role.permissions)
    const stored = await ctx.database.db
      .selectFrom('global.roles')
      .select('permissions')
      .where('id', '=', role.id)
      .executeTakeFirstOrThrow()
    expect(Object.keys(stored.permissions as object)).not.toContain('3')
    // The role's holder gets exactly those rights.
    const holder = await addMember(ctx, org.businessId, { role: 'Custom', customRoleId: role.id })
    expect((await holder.core({ url: '/api/v1/Customers' })).statusCode).toBe(200)
    expect((await holder.core({ url: '/api/v1/products' })).statusCode).toBe(403)
    const updated = await updateRole(core, role.id, { name: 'By number', permissions: { '16': 7 } })
    expect(updated.json().data.permissions).toEqual({ ...NO_PERMISSIONS, Schedule: 7 })
  })

  it('names each invalid field in a 400', async () => {
    const { core } = shared
    for (const [payload, fields] of [
      [{ name: 'X', permissions: { Bogus: 1 } }, ['permissions.Bogus']],
      [{ name: 'X', permissions: { '0': 1 } }, ['permissions.0']],
      [{ name: 'X', permissions: { '17': 1, M2: 1 } }, ['permissions.17', 'permissions.M2']],
      [{ name: 'X', permissions: { '3': 1, CUSTOMERS: 3 } }, ['permissions.CUSTOMERS']],
      [{ name: 'X', permissions: { '3': 8 } }, ['permissions.3']],
      [{ name: 'X', permissions: { Orders: 9 } }, ['permissions.Orders']],
      [
        { name: 'X', permissions: { Orders: -1, Shipments: 1.5 } },
        ['permissions.Orders', 'permissions.Shipments'],
      ],
      [{ name: 'X', permissions: [] }, ['permissions']],
      [{ name: 'X' }, ['permissions']],
      [{ name: '', permissions: {} }, ['name']],
      [{ name: '   ', permissions: {} }, ['name']],
      [{ name: 'x'.repeat(51), permissions: {} }, ['name']],
      [{ name: 'X', description: 'd'.repeat(501), permissions: {} }, ['description']],
    ] as const) {
      const response = await createRole(core, payload as unknown as RoleBody)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(
        response
          .json()
          .reasons.map((r: { field: string }) => r.field)
          .sort(),
      ).toEqual(fields)
    }
  })

  it('refuses a built-in name or an existing name, ignoring case (409 role_name_taken)', async () => {
    const { core } = shared
    expect((await createRole(core, { name: 'Drivers', permissions: {} })).statusCode).toBe(200)
    for (const name of ['admin', 'OWNER', 'Member', 'dRIVERS', ' drivers ']) {
      const response = await createRole(core, { name, permissions: {} })
      expect(response.statusCode, name).toBe(409)
      expect(response.json().code).toBe('role_name_taken')
    }
    // Names are per organisation.
    expect((await createRole(other.core, { name: 'Drivers', permissions: {} })).statusCode).toBe(200)
  })

  it('lets a non-owner hand out only rights they hold (403 permission_exceeds_caller)', async () => {
    const owner = shared
    const admin = await addMember(ctx, owner.org.businessId, { role: 'Admin' })
    const refused = await createRole(admin.core, { name: 'Payroll', permissions: { Billing: 1 } })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('permission_exceeds_caller')
    expect((await createRole(admin.core, { name: 'Ops', permissions: { Orders: 7 } })).statusCode).toBe(200)
    expect((await createRole(owner.core, { name: 'Payroll', permissions: { Billing: 7 } })).statusCode).toBe(
      200,
    )
  })
})

describe('role permissions', () => {
  it('refuses a view-only Member on create, update and delete (403), and needs a credential', async () => {
    const owner = shared
    const member = await addMember(ctx, owner.org.businessId)
    const roleId = await addRole(ctx, member.organizationId, {})
    for (const response of [
      await createRole(member.core, { name: 'Mine', permissions: {} }),
      await updateRole(member.core, roleId, { name: 'Mine', permissions: {} }),
      await deleteRole(member.core, roleId),
    ]) {
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('permission_denied')
    }
    expect((await ctx.core.inject({ url: '/api/team/roles' })).statusCode).toBe(401)
  })

  it('lets a custom role with TeamAndRoles Modify manage roles, but not delete without Delete', async () => {
    const owner = shared
    const organizationId = await organizationIdOf(ctx, owner.org.businessId)
    const managerRole = await addRole(ctx, organizationId, { TeamAndRoles: 3, Orders: 7 })
    const manager = await addMember(ctx, owner.org.businessId, { role: 'Custom', customRoleId: managerRole })
    const created = await createRole(manager.core, { name: 'Pickers', permissions: { Orders: 1 } })
    expect(created.statusCode).toBe(200)
    const id = created.json().data.id
    expect(
      (await updateRole(manager.core, id, { name: 'Pickers', permissions: { Orders: 3 } })).statusCode,
    ).toBe(200)
    expect((await deleteRole(manager.core, id)).statusCode).toBe(403)
  })
})
