import { expect } from 'vitest'
import type { Core } from '../../../../test/harness.js'
import { at, post } from '../delivery.fixtures.js'

export const PLANS = '/api/v1/plans'
export const DAY = '2026-12-01'

export async function shipment(core: Core, latitude = -33.9, longitude = 18.4, extra: object = {}) {
  const response = await post(core, '/api/v1/shipments', {
    deliveryAddress: at(latitude, longitude),
    weight: 10,
    volume: 0.1,
    scheduledDate: `${DAY}T08:00:00Z`,
    ...extra,
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { id: string; code: string }
}

export async function plan(core: Core, body: object = {}) {
  const response = await post(core, PLANS, { scheduledDate: DAY, ...body })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as {
    id: string
    code: string
    status: string
    scheduledDate: string
    shipments: { id: string }[]
  }
}

export const movePlan = (core: Core, id: string, path: string) => post(core, `${PLANS}/${id}/${path}`)
