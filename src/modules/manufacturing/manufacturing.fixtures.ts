import type { Core } from '../../../test/harness.js'

/** Test helpers for the make-and-stock modules: everything goes through the API. */

let counter = 0
export const sku = (prefix = 'SKU') => `${prefix}-${Date.now().toString(36)}-${++counter}`

export async function ok<T = Record<string, unknown>>(
  core: Core,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<T> {
  const response = await core({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
  if (response.statusCode !== 200)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json().data as T
}

export interface Product {
  id: string
  sku: string
  name: string
  type: string
  onHand: number
  averageCost: number
  reorderLevel: number | null
}

export const createProduct = (core: Core, body: Record<string, unknown> = {}) =>
  ok<Product>(core, 'POST', '/api/v1/products', {
    sku: sku(),
    name: 'Steel rod',
    type: 'RawMaterial',
    ...body,
  })

export interface Entry {
  id: string
  type: string
  quantity: number
  unitCost: number
  value: number
  effectiveDate: string
  balance: number
  averageCost: number
}

export const move = (core: Core, productId: string, body: Record<string, unknown>) =>
  ok<Entry>(core, 'POST', `/api/v1/products/${productId}/stock-movements`, body)

export const receive = (
  core: Core,
  productId: string,
  quantity: number,
  unitCost: number,
  effectiveDate?: string,
) =>
  move(core, productId, { type: 'Receipt', quantity, unitCost, ...(effectiveDate ? { effectiveDate } : {}) })

export const issue = (core: Core, productId: string, quantity: number, effectiveDate?: string) =>
  move(core, productId, { type: 'Issue', quantity, ...(effectiveDate ? { effectiveDate } : {}) })

export const stockOf = (core: Core, productId: string, asOfDate?: string) =>
  ok<{ onHand: number; unitCost: number; value: number; asOfDate: string }>(
    core,
    'GET',
    `/api/v1/products/${productId}/stock${asOfDate ? `?asOfDate=${encodeURIComponent(asOfDate)}` : ''}`,
  )

export async function ledgerOf(core: Core, productId: string) {
  const response = await core({ method: 'GET', url: `/api/v1/products/${productId}/ledger?PageSize=100` })
  if (response.statusCode !== 200) throw new Error(`ledger: ${response.statusCode} ${response.body}`)
  return response.json().data as Entry[]
}

/** A stocked product: created, then received at `unitCost` on `date`. */
export async function stocked(
  core: Core,
  quantity: number,
  unitCost: number,
  date: string,
  body: Record<string, unknown> = {},
) {
  const product = await createProduct(core, body)
  await receive(core, product.id, quantity, unitCost, date)
  return product
}
