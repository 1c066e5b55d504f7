import { describe, expect, it } from 'vitest'
import { allocate, lineReasons } from './returns.rules.js'

const A = '00000000-0000-4000-8000-00000000000a'
const B = '00000000-0000-4000-8000-00000000000b'
const delivered = [
  { id: 'old', product_id: A, quantity: '4.0000', returned: '3.0000' },
  { id: 'new', product_id: A, quantity: '2.5000', returned: '0' },
  { id: 'other', product_id: B, quantity: '1', returned: '1' },
]

describe('a return’s lines', () => {
  it('are taken from the delivered lines of their product, oldest first, past what is returned already', () => {
    const { allocations, reasons } = allocate(
      [{ productId: A.toUpperCase(), quantity: 2.5 }],
      new Set([A, B]),
      delivered,
      'here',
    )
    expect(reasons).toEqual([])
    expect(allocations.map((a) => [a.line.id, a.quantity])).toEqual([
      ['old', 1],
      ['new', 1.5],
    ])
  })

  it('name the field of each line that cannot be returned', () => {
    const unknown = '00000000-0000-4000-8000-00000000000c'
    const { allocations, reasons } = allocate(
      [
        { productId: A, quantity: 3.5001 },
        { productId: B, quantity: 0.0001 },
        { productId: unknown, quantity: 1 },
      ],
      new Set([A, B]),
      delivered.filter((d) => d.id !== 'other'),
      'on shipment SHP-000001',
    )
    expect(allocations).toEqual([])
    expect(reasons).toEqual([
      {
        field: 'lines.0.quantity',
        message: 'at most 3.5 can be returned (6.5 delivered, 3 returned already)',
      },
      { field: 'lines.1.productId', message: 'was not delivered on shipment SHP-000001' },
      { field: 'lines.2.productId', message: 'must be a product of this business' },
    ])
  })

  it('take at most 4 decimal places and each product once', () => {
    expect(
      lineReasons([
        { productId: A, quantity: 0.00001 },
        { productId: A.toUpperCase(), quantity: 1.2345 },
        { productId: B, quantity: 999_999_999.1234 },
      ]),
    ).toEqual([
      { field: 'lines.0.quantity', message: 'must have at most 4 decimal places' },
      { field: 'lines.1.productId', message: 'appears more than once' },
    ])
  })
})
