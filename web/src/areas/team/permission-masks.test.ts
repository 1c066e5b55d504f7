import { describe, expect, it } from 'vitest'
import { maskWords, moduleWords, rightsWords } from './permission-masks'

describe('rights in words', () => {
  it('names each level with its modules, and most modules as every module but the rest', () => {
    const modules = ['Orders', 'Shipments', 'Customers', 'Billing', 'PurchaseOrders']
    const all = (mask: number) => Object.fromEntries(modules.map((m) => [m, mask]))
    expect(rightsWords(all(7))).toBe('View, modify and delete: every module')
    expect(rightsWords({ ...all(7), Billing: 0 })).toBe('View, modify and delete: every module but Billing')
    expect(rightsWords({ ...all(0), Shipments: 3, Customers: 1 })).toBe(
      'View and modify: Shipments; View: Customers',
    )
    expect(rightsWords(all(0))).toBe('None')
    expect(rightsWords({ ...all(0), PurchaseOrders: 1 })).toBe('View: Purchase orders')
  })

  it('writes a mask no level names by its rights', () => {
    expect(maskWords(2)).toBe('modify')
    expect(maskWords(5)).toBe('view, delete')
    expect(moduleWords('TeamAndRoles')).toBe('Team and roles')
  })
})
