import { describe, expect, it } from 'vitest'
import { skuFilters } from './units'

describe('the products of some SKUs, for their units', () => {
  it('asks once per 100 distinct SKUs, quoted as OData literals', () => {
    expect(skuFilters([])).toEqual([])
    expect(skuFilters(['RM-OATS', 'RM-FLOUR', 'RM-OATS', ''])).toEqual(["sku in ('RM-FLOUR', 'RM-OATS')"])
    expect(skuFilters(["O'BRIEN"])).toEqual(["sku in ('O''BRIEN')"])
    const many = Array.from({ length: 250 }, (_, i) => `SKU-${String(i).padStart(3, '0')}`)
    const filters = skuFilters(many)
    expect(filters).toHaveLength(3)
    expect(filters[2]).toBe(
      `sku in (${many
        .slice(200)
        .map((s) => `'${s}'`)
        .join(', ')})`,
    )
  })
})
