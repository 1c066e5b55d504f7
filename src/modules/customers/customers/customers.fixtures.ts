import { randomUUID } from 'node:crypto'
import type { Core } from '../../../../test/harness.js'
import type { CustomerResponse } from './customers.schemas.js'

/** Test helpers for customers and customer groups (the ones every module shares are in test/fixtures.ts). */

export const CUSTOMERS = '/api/v1/Customers'
export const GROUPS = '/api/v1/CustomerGroups'

export async function createCustomer(
  core: Core,
  body: Record<string, unknown> = {},
): Promise<CustomerResponse> {
  const response = await core({ method: 'POST', url: CUSTOMERS, payload: { name: 'Acme Ltd', ...body } })
  if (response.statusCode !== 200) throw new Error(`create customer: ${response.statusCode} ${response.body}`)
  return response.json().data
}

export async function createGroup(core: Core, name = `Group ${randomUUID().slice(0, 8)}`) {
  const response = await core({ method: 'POST', url: GROUPS, payload: { name } })
  if (response.statusCode !== 200) throw new Error(`create group: ${response.statusCode} ${response.body}`)
  return response.json().data as { id: string; name: string; customerCount: number }
}

/** The traces of a customer as the API lists them (newest first). */
export async function tracesOf(core: Core, customerId: string, query = '') {
  const response = await core({ url: `${CUSTOMERS}/${customerId}/traces${query}` })
  if (response.statusCode !== 200) throw new Error(`traces: ${response.statusCode} ${response.body}`)
  return response.json().data as { type: string; note: string | null; source: string }[]
}
