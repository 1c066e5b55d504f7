import type { Target } from './load.js'
import type { Scenario, Seed } from './scenario-types.js'

const base = (port: number | undefined) => {
  if (port === undefined) throw new Error('server did not announce that port')
  return `http://127.0.0.1:${port}`
}

/** The request for a scenario on Cartage and on the baseline (same method, headers and body). */
export function targets(
  scenario: Scenario,
  seed: Seed,
  cartagePorts: Record<string, number>,
  baselinePort: number,
): { cartage: Target; baseline: Target } {
  const { api, method, path, headers, body } = scenario.cartage
  const payload = body ? JSON.stringify(body(seed)) : undefined
  const given = headers?.(seed) ?? {}
  const allHeaders = payload ? { 'content-type': 'application/json', ...given } : given
  const common = { method, headers: allHeaders, ...(payload ? { body: payload } : {}) }
  return {
    cartage: { ...common, url: `${base(cartagePorts[api])}${path(seed)}` },
    baseline: { ...common, url: `${base(baselinePort)}/bench/${scenario.name}` },
  }
}
