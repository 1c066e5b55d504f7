import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors'
import { planMoves } from '../api/plans'
import { isCurrent } from '../app/Shell'
import { allows, pickBusiness } from '../app/workspace-context'
import { shipmentMoves } from '../areas/delivery/ShipmentDetail'
import { workOrderMoves } from '../areas/manufacturing/WorkOrderDetail'
import { cellText } from '../areas/sql/SqlConsole'
import { shortfallOf } from '../areas/stock/shortfall'
import { niceTicks } from '../components/Charts'
import { consoleRouteFor } from './action-links'
import { endOfLocalDay, fromLocalInput, isFuture, lastDays, localDay } from './dates'
import { words } from './format'
import { takeHandoffToken } from './handoff'
import { allOf, quoted } from './odata'

describe('notification links', () => {
  it("open the console's page for the API path or the entity a notification names", () => {
    const note = (actionLink: string | null, entityType = 'None', entityId: string | null = null) => ({
      actionLink,
      entityType,
      entityId,
    })
    expect(consoleRouteFor(note('/api/v1/plans/p-1'))).toBe('/delivery/plans/p-1')
    expect(consoleRouteFor(note('/api/v1/shipments/s-1?x=1'))).toBe('/delivery/shipments/s-1')
    expect(consoleRouteFor(note('https://cartage.example.com/api/v1/plans/p-2'))).toBe('/delivery/plans/p-2')
    expect(consoleRouteFor(note(null, 'Product', 'pr-1'))).toBe('/products/pr-1')
    expect(consoleRouteFor(note(null, 'WorkOrder', 'w-1'))).toBe('/manufacturing/work-orders/w-1')
    expect(consoleRouteFor(note('/api/carriers/7', 'IntegrationProvider', null))).toBeNull()
    // Supplier, purchase and transfer notifications open their pages too.
    expect(consoleRouteFor(note('/api/v1/suppliers/su-1', 'Supplier', 'su-1'))).toBe('/suppliers/su-1')
    expect(consoleRouteFor(note('/api/v1/purchase-orders/po-1'))).toBe('/purchase-orders/po-1')
    expect(consoleRouteFor(note('/api/v1/transfer-orders/t-1'))).toBe('/transfer-orders/t-1')
    expect(consoleRouteFor(note(null, 'TransferOrder', 't-2'))).toBe('/transfer-orders/t-2')
  })
})

describe('the stock shortfall', () => {
  it('is read from the 409 the ledger answers', () => {
    const error = new ApiError(
      409,
      'stock_shortfall',
      'The stock would fall below zero on 2026-11-20T08:00:00.000Z, short by 2.5.',
    )
    expect(shortfallOf(error)).toEqual({ date: new Date('2026-11-20T08:00:00.000Z'), shortfall: 2.5 })
    expect(shortfallOf(new ApiError(409, 'invalid_status_transition', 'x'))).toBeNull()
    expect(shortfallOf(new Error('x'))).toBeNull()
  })
})

describe('the hand-off link', () => {
  it('takes the token out of the address and leaves the dashboard route', () => {
    const replaced: string[] = []
    const history = {
      replaceState: (_s: unknown, _t: string, url?: string | URL | null) => replaced.push(String(url)),
    }
    expect(takeHandoffToken({ hash: '#/handoff?token=ott_abc', pathname: '/', search: '' }, history)).toBe(
      'ott_abc',
    )
    expect(replaced).toEqual(['/#/'])
    expect(takeHandoffToken({ hash: '#/customers', pathname: '/', search: '' }, history)).toBeNull()
    expect(takeHandoffToken({ hash: '#/handoff?other=1', pathname: '/', search: '' }, history)).toBeNull()
  })
})

describe('dates for forms', () => {
  it('turns a day into the end of that local day, and a local input into an instant', () => {
    const end = new Date(endOfLocalDay('2026-03-03') as string)
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()]).toEqual([
      2026, 2, 3, 23, 59,
    ])
    expect(endOfLocalDay('03/03/2026')).toBeNull()
    expect(fromLocalInput('')).toBeNull()
    expect(new Date(fromLocalInput('2026-03-03T10:15') as string).getHours()).toBe(10)
    expect(isFuture(new Date(Date.now() + 3_600_000).toISOString())).toBe(true)
    expect(isFuture(new Date().toISOString())).toBe(false)
    expect(lastDays(7, new Date(2026, 0, 3))).toEqual({ from: '2025-12-28', to: '2026-01-03' })
    // 22:30 UTC on 31 December is already 1 January in Johannesburg, and still 31 December in New York.
    const lateEvening = new Date(Date.UTC(2026, 11, 31, 22, 30))
    expect(lastDays(7, lateEvening, 'Africa/Johannesburg')).toEqual({ from: '2026-12-26', to: '2027-01-01' })
    expect(lastDays(30, lateEvening, 'America/New_York')).toEqual({ from: '2026-12-02', to: '2026-12-31' })
    expect(lastDays(1, lateEvening, 'Not/AZone').to).toBe(localDay(lateEvening))
    expect(localDay(new Date(2026, 10, 5))).toBe('2026-11-05')
  })
})

describe('small helpers', () => {
  it('quote $filter strings and join clauses', () => {
    expect(quoted("O'Brien")).toBe("'O''Brien'")
    expect(allOf('', undefined, "status eq 'Active'")).toBe("status eq 'Active'")
    expect(allOf("a eq 'x'", 'b eq 1')).toBe("(a eq 'x') and (b eq 1)")
    expect(allOf(false, null)).toBeUndefined()
  })

  it('write states as words, cells as text, and axes in whole steps for counts', () => {
    expect(words('InTransit')).toBe('In transit')
    expect(words('WorkOrderReceipt')).toBe('Work order receipt')
    expect(cellText(null)).toBe('null')
    expect(cellText({ a: 1 })).toBe('{"a":1}')
    expect(cellText(12.5)).toBe('12.5')
    expect(niceTicks(1)).toEqual([0, 1])
    expect(niceTicks(8)).toEqual([0, 2, 4, 6, 8])
    expect(niceTicks(23)).toEqual([0, 10, 20, 30])
    expect(niceTicks(0)).toEqual([0, 1])
  })

  it('read permissions, choose the business to open and mark the current area', () => {
    expect(allows({ Customers: 3 }, 'Customers', 'Modify')).toBe(true)
    expect(allows({ Customers: 1 }, 'Customers', 'Delete')).toBe(false)
    expect(allows({}, 'Insights', 'View')).toBe(false)
    const head = { id: 'h', displayName: 'Head', parentBusinessId: null }
    const branch = { id: 'b', displayName: 'Branch', parentBusinessId: 'h' }
    expect(pickBusiness([branch, head], [null, undefined])).toBe(head)
    expect(pickBusiness([branch, head], ['gone', 'b'])).toBe(branch)
    expect(isCurrent('/delivery', '/delivery/plans/1')).toBe(true)
    expect(isCurrent('/delivery', '/delivery/zones')).toBe(false)
    expect(isCurrent('/delivery/zones', '/delivery/zones')).toBe(true)
    expect(isCurrent('/', '/customers')).toBe(false)
    expect(isCurrent('/customers', '/customers/1')).toBe(true)
  })

  it('offer only the moves each state allows', () => {
    expect(planMoves('Draft')).toEqual(['schedule', 'cancel'])
    expect(planMoves('Completed')).toEqual([])
    expect(workOrderMoves('Released')).toEqual(['start', 'complete', 'cancel'])
    expect(shipmentMoves('InTransit')).toEqual(['deliver', 'fail'])
    expect(shipmentMoves('Failed')).toEqual(['return'])
  })
})
