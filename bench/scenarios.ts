/**
 * What the bench measures: each scenario is one real Cartage request and the SQL that request
 * runs, which the bare baseline server runs with the same parameters. Reads come first: the write
 * scenario adds customers, which would change the list page the reads were seeded with.
 */
import type { Scenario } from './scenario-types.js'
import { confirmScenarios } from './scenarios-confirm.js'
import { deliveryScenarios } from './scenarios-delivery.js'
import { dispatchScenarios } from './scenarios-dispatch.js'
import { manufacturingScenarios } from './scenarios-manufacturing.js'
import { publicScenarios } from './scenarios-public.js'
import { purchaseOrderScenarios } from './scenarios-purchase-orders.js'
import { purchasingScenarios } from './scenarios-purchasing.js'
import { salesScenarios } from './scenarios-sales.js'
import { tenantScenarios } from './scenarios-tenant.js'
import { trackingScenarios } from './scenarios-tracking.js'
import { transferScenarios } from './scenarios-transfers.js'

export type { ResolvedSeed, Scenario, Seed, Statement } from './scenario-types.js'

/** From the product brief ("Performance design"): Cartage over the bare route, same SQL, same run. */
export const READ_GOAL = 0.8
export const WRITE_GOAL = 0.75

export const scenarios: Scenario[] = [
  ...publicScenarios,
  ...tenantScenarios,
  ...manufacturingScenarios,
  ...deliveryScenarios,
  ...purchasingScenarios,
  ...transferScenarios,
  ...purchaseOrderScenarios,
  ...salesScenarios,
  ...confirmScenarios,
  ...dispatchScenarios,
  ...trackingScenarios,
].sort((a, b) => Number(a.kind === 'write') - Number(b.kind === 'write'))

/** BENCH_ONLY=a,b runs only the scenarios so named (e.g. to profile one route). */
export function selectedScenarios(): Scenario[] {
  const only = process.env.BENCH_ONLY?.split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (!only?.length) return scenarios
  const unknown = only.filter((name) => !scenarios.some((s) => s.name === name))
  if (unknown.length > 0) throw new Error(`BENCH_ONLY names unknown scenarios: ${unknown.join(', ')}`)
  return scenarios.filter((s) => only.includes(s.name))
}
