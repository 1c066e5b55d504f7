import { describe, expect, it } from 'vitest'
import { AppError } from '../../../errors.js'
import { decimalReasons, hasPlaces, round } from '../decimals.js'
import { checkMovement, effectiveDateOf } from './stock-movement.rules.js'

const fields = (result: { reasons: { field: string }[] }) => result.reasons.map((r) => r.field)

describe("the ledger's arithmetic before it reaches the database", () => {
  it('signs quantities: an Issue leaves the stock, a Receipt and a positive Adjustment enter it', () => {
    const issue = checkMovement({ type: 'Issue', quantity: 4 })
    expect(issue.movement).toMatchObject({ type: 'Issue', quantity: -4, receivedCost: null })
    expect(checkMovement({ type: 'Receipt', quantity: 4, unitCost: 2.5 }).movement).toMatchObject({
      quantity: 4,
      receivedCost: 2.5,
    })
    expect(checkMovement({ type: 'Adjustment', quantity: -3 }).movement).toMatchObject({ quantity: -3 })
  })

  it('asks a cost of a Receipt only, and refuses one where the moving average decides', () => {
    expect(fields(checkMovement({ type: 'Receipt', quantity: 1 }))).toEqual(['unitCost'])
    expect(fields(checkMovement({ type: 'Issue', quantity: 1, unitCost: 3 }))).toEqual(['unitCost'])
    expect(fields(checkMovement({ type: 'Adjustment', quantity: -1, unitCost: 3 }))).toEqual(['unitCost'])
    expect(checkMovement({ type: 'Adjustment', quantity: 1, unitCost: 3 }).movement?.receivedCost).toBe(3)
  })

  it('refuses zero and negative quantities where they mean nothing, naming the field after the prefix', () => {
    expect(fields(checkMovement({ type: 'Issue', quantity: 0 }, 'movements.2.'))).toEqual([
      'movements.2.quantity',
    ])
    expect(fields(checkMovement({ type: 'Receipt', quantity: -1, unitCost: 1 }))).toEqual(['quantity'])
    expect(fields(checkMovement({ type: 'Adjustment', quantity: 0 }))).toEqual(['quantity'])
  })

  it('keeps 4 decimals of a quantity and 6 of a unit cost, never rounding one silently', () => {
    expect(fields(checkMovement({ type: 'Receipt', quantity: 1.00001, unitCost: 1.0000001 }))).toEqual([
      'quantity',
      'unitCost',
    ])
    expect(checkMovement({ type: 'Receipt', quantity: 1.0001, unitCost: 1.000001 }).reasons).toEqual([])
    expect(hasPlaces(0.1 + 0.2, 4)).toBe(false)
    expect(round(0.1 + 0.2)).toBe(0.3)
    expect(round(1.00005)).toBe(1.0001)
    expect(decimalReasons({ a: 1.5, b: null, c: undefined }, 0, 'x.')).toEqual([
      { field: 'x.a', message: 'must have at most 0 decimal places' },
    ])
  })

  it('dates a movement now by default, and refuses one dated in the future', () => {
    const before = Date.now()
    expect(effectiveDateOf(undefined).getTime()).toBeGreaterThanOrEqual(before)
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
    expect(() => effectiveDateOf(tomorrow)).toThrow(AppError)
    expect(fields(checkMovement({ type: 'Issue', quantity: 1, effectiveDate: tomorrow }))).toEqual([
      'effectiveDate',
    ])
  })
})
