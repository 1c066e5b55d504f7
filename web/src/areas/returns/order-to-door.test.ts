import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/errors'
import { pdfName } from '../../lib/documents'
import { lineProblems, orderMoves } from '../orders/order-logic'
import { promiseInWords } from '../stock/promise'
import { problemsByProduct, returnableProducts, returnDraft, returnMoves } from './return-logic'

const writeDay = (d: string) => `[${d}]`

describe('order and return moves', () => {
  it('offer what each state allows', () => {
    expect(orderMoves('Draft')).toEqual(['confirm', 'cancel'])
    expect(orderMoves('Confirmed')).toEqual(['fulfill', 'cancel'])
    expect(orderMoves('PartiallyFulfilled')).toEqual(['fulfill'])
    expect(orderMoves('Fulfilled')).toEqual([])
    expect(orderMoves('Cancelled')).toEqual([])
    expect(returnMoves('Requested')).toEqual(['receive', 'writeOff', 'cancel'])
    for (const status of ['Received', 'WrittenOff', 'Cancelled']) expect(returnMoves(status)).toEqual([])
  })

  it('file a refused confirmation under each short line by its number', () => {
    const refused = new ApiError(409, 'insufficient_stock', 'short', [
      { field: 'lines.1.quantity', message: 'short by 3 (2 available)' },
      { field: 'lines.0.quantity', message: 'short by 1 (0 available)' },
    ])
    expect([...lineProblems(refused).entries()].sort()).toEqual([
      [1, 'short by 1 (0 available)'],
      [2, 'short by 3 (2 available)'],
    ])
    expect(lineProblems(new Error('offline')).size).toBe(0)
  })
})

describe('a return from a delivered shipment', () => {
  const delivered = [
    { productId: 'a', sku: 'SA-GRANOLA', name: 'Granola', quantity: 2 },
    { productId: 'b', sku: 'PK-BOX', name: 'Gift box', quantity: 1 },
    { productId: 'a', sku: 'SA-GRANOLA', name: 'Granola', quantity: 3 },
  ]

  it('offers each product once, with all that was delivered of it', () => {
    expect(returnableProducts(delivered)).toEqual([
      { productId: 'a', sku: 'SA-GRANOLA', name: 'Granola', delivered: 5 },
      { productId: 'b', sku: 'PK-BOX', name: 'Gift box', delivered: 1 },
    ])
  })

  it('sends the products given a quantity, and refuses nonsense before sending', () => {
    const products = returnableProducts(delivered)
    expect(returnDraft(products, { a: '2', b: '' })).toEqual({
      lines: [{ productId: 'a', quantity: 2 }],
      problems: {},
    })
    expect(returnDraft(products, { a: '0', b: ' 1.25 ' })).toEqual({
      lines: [{ productId: 'b', quantity: 1.25 }],
      problems: {},
    })
    expect(returnDraft(products, { a: '-1', b: 'x' }).problems).toEqual({
      a: 'A quantity above 0.',
      b: 'A quantity above 0.',
    })
    expect(returnDraft(products, { a: '1.23456' }).problems).toEqual({ a: 'At most 4 decimals.' })
    expect(returnDraft(products, {}).problems).toEqual({
      lines: 'Enter the quantity coming back of at least one product.',
    })
  })

  it("files the server's reasons under the product each line sent named", () => {
    const refused = new ApiError(400, 'validation_error', 'bad', [
      { field: 'lines.1.quantity', message: 'at most 1 can be returned (4 delivered, 3 returned already)' },
    ])
    expect(problemsByProduct(refused, [{ productId: 'a' }, { productId: 'b' }])).toEqual({
      b: 'at most 1 can be returned (4 delivered, 3 returned already)',
    })
    expect(problemsByProduct(null, [{ productId: 'a' }])).toEqual({})
  })
})

describe('available-to-promise in words', () => {
  const base = { quantity: 8, date: '2027-02-01', free: -2 }
  it('says yes, from when, or that even incoming stock falls short', () => {
    expect(
      promiseInWords({ ...base, free: 10, promisable: true, earliestDate: '2027-01-10' }, 'kg', writeDay),
    ).toBe(
      'Yes: 8 kg can be promised by [2027-02-01], from [2027-01-10]; 10 kg free now (available less backorders).',
    )
    expect(promiseInWords({ ...base, promisable: false, earliestDate: '2027-02-15' }, 'kg', writeDay)).toBe(
      'Not by [2027-02-01]: 8 kg can be promised from [2027-02-15], when incoming stock covers it; -2 kg free now (available less backorders).',
    )
    expect(promiseInWords({ ...base, promisable: false, earliestDate: null }, 'kg', writeDay)).toBe(
      'Not by [2027-02-01], nor later: even all incoming stock falls short of 8 kg; -2 kg free now (available less backorders).',
    )
  })
})

describe('document file names', () => {
  it('name the kind and the code, safe for a file system', () => {
    expect(pdfName('delivery-note', 'SHP-000004')).toBe('delivery-note-SHP-000004.pdf')
    expect(pdfName('route-sheet', 'PLN/2026 01')).toBe('route-sheet-PLN-2026-01.pdf')
    expect(pdfName('pick-list', '')).toBe('pick-list.pdf')
  })
})
