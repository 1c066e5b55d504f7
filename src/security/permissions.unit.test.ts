import { describe, expect, it } from 'vitest'
import {
  ALL_ACTIONS,
  can,
  everyModule,
  intersect,
  isSubset,
  moduleNamed,
  PERMISSION_MODULES,
  parsePermissionMap,
  parseScopesText,
  ROLE_PERMISSIONS,
  readStoredScopes,
} from './permissions.js'

describe('permission maths', () => {
  it('gives the built-in roles their rights: Owner all, Admin all but Billing, Member view only', () => {
    for (const module of PERMISSION_MODULES) {
      expect(ROLE_PERMISSIONS.Owner[module]).toBe(ALL_ACTIONS)
      expect(ROLE_PERMISSIONS.Admin[module]).toBe(module === 'Billing' ? 0 : ALL_ACTIONS)
      expect(can(ROLE_PERMISSIONS.Member, module, 'View')).toBe(true)
      expect(can(ROLE_PERMISSIONS.Member, module, 'Modify')).toBe(false)
    }
  })

  it('reads each action as its own bit, and a missing module as no rights', () => {
    const set = { Orders: 5, Customers: 2 }
    expect([can(set, 'Orders', 'View'), can(set, 'Orders', 'Modify'), can(set, 'Orders', 'Delete')]).toEqual([
      true,
      false,
      true,
    ])
    expect(can(set, 'Customers', 'Modify')).toBe(true)
    expect(can(set, 'Shipments', 'View')).toBe(false)
  })

  it('intersects bit by bit, drops modules left with nothing, and treats null as unrestricted', () => {
    expect(intersect({ Orders: 7, Customers: 1, Products: 3 }, { Orders: 3, Customers: 6 })).toEqual({
      Orders: 3,
    })
    const owner = ROLE_PERMISSIONS.Owner
    expect(intersect(owner, null)).toBe(owner)
  })

  it('knows a subset: every bit of the inner set is in the outer one', () => {
    expect(isSubset({ Orders: 1 }, { Orders: 3 })).toBe(true)
    expect(isSubset({ Orders: 4 }, { Orders: 3 })).toBe(false)
    expect(isSubset({ Billing: 1 }, ROLE_PERMISSIONS.Admin)).toBe(false)
    expect(isSubset({}, {})).toBe(true)
  })

  it('names modules in any letter case or by their 1-based number', () => {
    expect(moduleNamed('orders')).toBe('Orders')
    expect(moduleNamed('PURCHASEORDERS')).toBe('PurchaseOrders')
    expect(moduleNamed('3')).toBe('Customers')
    expect(moduleNamed(String(PERMISSION_MODULES.length + 1))).toBeUndefined()
    expect(moduleNamed('Payroll')).toBeUndefined()
  })

  it('parses a permission map to canonical names, with a reason naming each bad key', () => {
    expect(parsePermissionMap('scopes', { orders: 7, 3: 1 })).toEqual({
      permissions: { Orders: 7, Customers: 1 },
      reasons: [],
    })
    const { permissions, reasons } = parsePermissionMap('scopes', {
      Payroll: 1,
      Orders: 8,
      orders: 1,
      Customers: 1.5,
    })
    expect(permissions).toBeUndefined()
    expect(reasons.map((r) => r.field)).toEqual([
      'scopes.Payroll',
      'scopes.Orders',
      'scopes.orders',
      'scopes.Customers',
    ])
    for (const value of [null, [], 'Orders', 7])
      expect(parsePermissionMap('scopes', value).reasons.map((r) => r.field)).toEqual(['scopes'])
  })

  it('reads scopes text: blank is unrestricted, JSON is checked, anything else is a reason', () => {
    expect(parseScopesText('scopes', undefined)).toEqual({ scopes: null, reasons: [] })
    expect(parseScopesText('scopes', '  ')).toEqual({ scopes: null, reasons: [] })
    expect(parseScopesText('scopes', '{"orders": 3}')).toEqual({ scopes: { Orders: 3 }, reasons: [] })
    expect(parseScopesText('scopes', '{orders').reasons.map((r) => r.field)).toEqual(['scopes'])
    expect(parseScopesText('scopes', '{"Nope": 1}').reasons.map((r) => r.field)).toEqual(['scopes.Nope'])
  })

  it('reads stored scopes defensively: text that is not an object grants nothing, masks are clipped to 0..7', () => {
    expect(readStoredScopes(null)).toBeNull()
    expect(readStoredScopes('')).toBeNull()
    expect(readStoredScopes('not json')).toEqual({})
    expect(readStoredScopes('[1, 2]')).toEqual({})
    expect(readStoredScopes('{"orders": 15, "2": 1, "Nope": 7, "Customers": "7"}')).toEqual({
      Orders: 7,
      Shipments: 1,
    })
  })

  it('lists every module with its mask, 0 where the set has none', () => {
    const listed = everyModule({ Orders: 3 })
    expect(Object.keys(listed)).toEqual([...PERMISSION_MODULES])
    expect(listed.Orders).toBe(3)
    expect(listed.Billing).toBe(0)
  })
})
