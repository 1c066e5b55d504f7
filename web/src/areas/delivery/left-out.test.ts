import { describe, expect, it } from 'vitest'
import { LEFT_OUT_WORDS, leftOutFromMessages, movedTo, scheduledOn } from './left-out'

const warning = (code: string, shipment: string, message = `Shipment ${shipment} …`) => ({
  code,
  level: 'Warning',
  title: code.endsWith('not_routed') ? `Shipment ${shipment} not routed` : `Shipment ${shipment} left out`,
  message,
})

describe("why autobatch left a shipment out, in the server's words", () => {
  it('names each shipment with the reason its message code gives, in the order the server answered', () => {
    const { leftOut, notRouted } = leftOutFromMessages([
      warning('autobatch_no_coordinates', 'SHP-000010'),
      warning('autobatch_outside_zones', 'SHP-000011'),
      warning(
        'autobatch_over_capacity',
        'SHP-000012',
        'Shipment SHP-000012 does not fit the vehicle: its 90 kg…',
      ),
      warning('autobatch_outside_windows', 'SHP-000013'),
      warning('autobatch_outside_shift', 'SHP-000014'),
      warning('autobatch_unreachable', 'SHP-000015'),
    ])
    expect(leftOut.map((e) => [e.code, e.reason])).toEqual([
      ['SHP-000010', 'noLocation'],
      ['SHP-000011', 'noZone'],
      ['SHP-000012', 'overCapacity'],
      ['SHP-000013', 'outsideWindows'],
      ['SHP-000014', 'outsideShift'],
      ['SHP-000015', 'unreachable'],
    ])
    expect(leftOut[2]?.detail).toContain('90 kg')
    expect(notRouted).toEqual([])
  })

  it('never calls a window, the shift or an unreachable point "over capacity"', () => {
    const { leftOut } = leftOutFromMessages([
      warning('autobatch_outside_windows', 'SHP-1'),
      warning('autobatch_outside_shift', 'SHP-2'),
      warning('autobatch_unreachable', 'SHP-3'),
    ])
    for (const entry of leftOut) expect(LEFT_OUT_WORDS[entry.reason]).not.toMatch(/capacity/)
    expect(new Set(leftOut.map((e) => LEFT_OUT_WORDS[e.reason])).size).toBe(3)
  })

  it("keeps the plan's own unrouted stops apart, and ignores messages that are not about a shipment", () => {
    const { leftOut, notRouted } = leftOutFromMessages([
      {
        code: 'plan_totals_stale',
        level: 'Info',
        title: 'Totals',
        message: 'Shipment counts refreshed later',
      },
      warning('autobatch_stop_not_routed', 'SHP-000003'),
      warning('reoptimise_stop_not_routed', 'SHP-000004'),
      warning('autobatch_some_new_reason', 'SHP-000005'),
    ])
    expect(notRouted.map((e) => e.code)).toEqual(['SHP-000003', 'SHP-000004'])
    expect(leftOut).toEqual([{ code: 'SHP-000005', reason: 'other', detail: 'Shipment SHP-000005 …' }])
  })
})

describe('a delivery day as a filter', () => {
  it('spans the UTC day, across a month end', () => {
    expect(scheduledOn('2026-11-30')).toBe(
      'scheduledDate ge 2026-11-30T00:00:00Z and scheduledDate lt 2026-12-01T00:00:00Z',
    )
  })
})

describe('a stop moved in the plan', () => {
  it('moves one id to its new place and keeps the rest in order', () => {
    expect(movedTo(['a', 'b', 'c', 'd'], 2, 0)).toEqual(['c', 'a', 'b', 'd'])
    expect(movedTo(['a', 'b', 'c', 'd'], 0, 3)).toEqual(['b', 'c', 'd', 'a'])
    expect(movedTo(['a', 'b', 'c'], 1, 2)).toEqual(['a', 'c', 'b'])
  })
  it('goes no further than the ends, and leaves the list as it was when nothing moves', () => {
    expect(movedTo(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c'])
    expect(movedTo(['a', 'b', 'c'], 2, 5)).toEqual(['a', 'b', 'c'])
    expect(movedTo(['a', 'b', 'c'], 7, 0)).toEqual(['a', 'b', 'c'])
  })
})
