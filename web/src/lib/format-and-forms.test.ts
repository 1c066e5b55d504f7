import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors'
import { problemsOf } from './form-errors'
import { costPerUnit, minorUnits, money, quantity } from './format'

describe('money', () => {
  it("is written in the currency's minor units; a unit cost keeps up to 4 decimals", () => {
    expect(minorUnits('ZAR')).toBe(2)
    expect(minorUnits('JPY')).toBe(0)
    expect(minorUnits('KWD')).toBe(3)
    expect(minorUnits(null)).toBe(2)
    expect(money(15.3125, 'ZAR')).toMatch(/15[.,]31$/)
    expect(money(15, 'ZAR')).toMatch(/15[.,]00$/)
    expect(money(1500.4, 'JPY')).not.toMatch(/[.,]\d$/)
    expect(costPerUnit(15.3125, 'ZAR')).toMatch(/15[.,]3125$/)
    expect(costPerUnit(15.5, 'ZAR')).toMatch(/15[.,]50$/)
    expect(money(null, 'ZAR')).toBe('—')
    expect(money(2.5, 'XYZ')).toMatch(/2[.,]50/)
  })
})

describe('quantities', () => {
  it("are written with the product's unit when it is known, to the ledger's 4 decimals", () => {
    expect(quantity(12.5, 'kg')).toMatch(/^12[.,]5 kg$/)
    expect(quantity(3, 'kg')).toBe('3 kg')
    expect(quantity(0.123456, 'l')).toMatch(/^0[.,]1235 l$/)
    expect(quantity(7)).toBe('7')
    expect(quantity(7, null)).toBe('7')
    expect(quantity(7, ' ')).toBe('7')
    expect(quantity(null, 'kg')).toBe('—')
  })
})

describe('server reasons at their fields', () => {
  it('files each reason under its field and the prefixes a form shows as one control', () => {
    const error = new ApiError(400, 'validation_failed', 'Invalid', [
      { field: 'lines.2.quantity', message: 'must be more than 0' },
      { field: 'name', message: 'is required' },
      { field: '', message: 'a general reason' },
    ])
    expect(problemsOf(error)).toEqual({
      'lines.2.quantity': 'must be more than 0',
      'lines.2': 'must be more than 0',
      lines: 'must be more than 0',
      name: 'is required',
    })
    expect(problemsOf(new Error('x'))).toEqual({})
  })
})
