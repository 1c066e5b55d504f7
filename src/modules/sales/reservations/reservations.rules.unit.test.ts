import { describe, expect, it } from 'vitest'
import { allocate, earliestPromise } from './reservations.rules.js'

describe('allocate', () => {
  it('shares what a product has between its lines in line order', () => {
    const lines = [
      { lineId: 'a', lineNumber: 1, productId: 'p', quantity: 3 },
      { lineId: 'b', lineNumber: 2, productId: 'q', quantity: 1.5 },
      { lineId: 'c', lineNumber: 3, productId: 'p', quantity: 4 },
    ]
    const result = allocate(
      lines,
      new Map([
        ['p', 5],
        ['q', 0],
      ]),
    )
    expect(result.map((l) => [l.reserved, l.short])).toEqual([
      [3, 0],
      [0, 1.5],
      [2, 2],
    ])
  })

  it('treats a negative availability as nothing free', () => {
    const [line] = allocate(
      [{ lineId: 'a', lineNumber: 1, productId: 'p', quantity: 0.0001 }],
      new Map([['p', -2]]),
    )
    expect(line).toMatchObject({ reserved: 0, short: 0.0001 })
  })
})

describe('earliestPromise', () => {
  const incoming = [
    { date: '2026-12-20', quantity: 5 },
    { date: null, quantity: 100 },
    { date: '2026-12-10', quantity: 2 },
  ]
  it('is today when what is free covers the quantity', () => {
    expect(earliestPromise(4, incoming, 4, '2026-12-01')).toBe('2026-12-01')
  })
  it('is the day dated incoming stock covers it, earliest first', () => {
    expect(earliestPromise(1, incoming, 3, '2026-12-01')).toBe('2026-12-10')
    expect(earliestPromise(1, incoming, 8, '2026-12-01')).toBe('2026-12-20')
  })
  it('is null when the dated incoming stock never covers it', () => {
    expect(earliestPromise(1, incoming, 9, '2026-12-01')).toBeNull()
  })
  it('never promises a day before today (an overdue purchase order)', () => {
    expect(earliestPromise(0, [{ date: '2026-11-01', quantity: 5 }], 5, '2026-12-01')).toBe('2026-12-01')
  })
})
