import { expect } from 'vitest'
import type { Core } from '../../../../test/harness.js'
import { upload } from '../../organisation/files/files.fixtures.js'
import { post } from '../delivery.fixtures.js'
import { movePlan, plan, shipment } from '../plans/plans.fixtures.js'

/** Test helpers for stop operations: shipments on their way, proof files, the operations' calls. */

export const stop = (core: Core, id: string, operation: string, payload?: unknown) =>
  post(core, `/api/v1/shipments/${id}/stop/${operation}`, payload)

/** A plan of `count` shipments, scheduled and dispatched (its shipments InTransit). */
export async function dispatchedPlan(core: Core, count = 1, extra: object = {}) {
  const shipments = []
  for (let i = 0; i < count; i++) shipments.push(await shipment(core, -33.9 + i / 100, 18.4, extra))
  const saved = await plan(core, { shipmentIds: shipments.map((s) => s.id) })
  for (const move of ['schedule', 'dispatch']) {
    const moved = await movePlan(core, saved.id, move)
    expect(moved.statusCode, moved.body).toBe(200)
  }
  return { plan: saved, shipments }
}

/** Uploads `content` and answers the file's id. */
export async function uploaded(core: Core, content: Buffer, name = 'proof.png') {
  const response = await upload(core, content, name)
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data.id as string
}
