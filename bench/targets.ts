import type { Target } from './load.js'
import type { Scenario, Seed } from './scenario-types.js'

const base = (port: number | undefined) => {
  if (port === undefined) throw new Error('server did not announce that port')
  return `http://127.0.0.1:${port}`
}

/** Per sequential scenario, the requests handed out so far: every target made for it draws from one count. */
const handedOut = new Map<string, number>()

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
  const nextPath = () => {
    const n = handedOut.get(scenario.name) ?? 0
    handedOut.set(scenario.name, n + 1)
    return path(seed, n)
  }
  return {
    cartage: {
      ...common,
      url: `${base(cartagePorts[api])}${path(seed, 0)}`,
      ...(scenario.cartage.sequential ? { nextPath } : {}),
    },
    baseline: { ...common, url: `${base(baselinePort)}/bench/${scenario.name}` },
  }
}
