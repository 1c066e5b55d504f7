import { describe, expect, it } from 'vitest'
import { draftLineProblems, type LineDraft, orderLinesBody } from '../areas/orders/order-logic'
import { storageKey, viewsOf, withoutView, withView } from './saved-views'

describe('saved views', () => {
  it('keeps views per list, replaces one saved again under its name, and removes one', () => {
    let text = withView(null, '/orders', { name: 'Drafts', query: 'status=Draft' })
    text = withView(text, '/orders', { name: 'Big ones', query: 'sort=-total' })
    text = withView(text, '/customers', { name: 'Active', query: 'status=Active' })
    text = withView(text, '/orders', { name: 'drafts', query: 'status=Draft&page=2' })
    expect(viewsOf(text, '/orders')).toEqual([
      { name: 'Big ones', query: 'sort=-total' },
      { name: 'drafts', query: 'status=Draft&page=2' },
    ])
    expect(viewsOf(text, '/customers')).toHaveLength(1)
    text = withoutView(text, '/customers', 'Active')
    expect(viewsOf(text, '/customers')).toEqual([])
    expect(JSON.parse(text)).not.toHaveProperty('/customers')
  })

  it('reads nothing from what is not its own (another version, a hand edit), and keys by organisation and user', () => {
    expect(viewsOf('not json', '/orders')).toEqual([])
    expect(viewsOf('{"/orders": [{"name": 3}, {"name": "ok", "query": ""}]}', '/orders')).toEqual([
      { name: 'ok', query: '' },
    ])
    expect(storageKey('org-1', 'user-2')).not.toBe(storageKey('org-2', 'user-2'))
  })
})

describe('the order form’s lines', () => {
  const line = (change: Partial<LineDraft>): LineDraft => ({
    key: 0,
    productId: '',
    productText: '',
    description: '',
    quantity: '1',
    unitPrice: '10',
    ...change,
  })
  it('asks for a product or a description, and numbers, under the API’s field names', () => {
    expect(
      draftLineProblems([
        line({ productId: 'p' }),
        line({ productText: 'gran' }),
        line({ description: 'x', quantity: '' }),
      ]),
    ).toEqual({
      'lines.1.productId': 'Choose the product from the suggestions.',
      'lines.2.quantity': 'A number, more than 0.',
    })
  })
  it('sends a line with its product or its description, as numbers', () => {
    expect(
      orderLinesBody([line({ productId: 'p', quantity: '2.5' }), line({ description: ' Gift ' })]),
    ).toEqual([
      { productId: 'p', description: null, quantity: 2.5, unitPrice: 10 },
      { productId: null, description: 'Gift', quantity: 1, unitPrice: 10 },
    ])
  })
})
