import type { Sample } from './load.js'
import { READ_GOAL, type Scenario, WRITE_GOAL } from './scenarios.js'

export interface ScenarioResult {
  name: string
  kind: Scenario['kind']
  cartage: { median: Sample; rounds: Sample[] }
  baseline: { median: Sample; rounds: Sample[] }
  /** Cartage req/s over baseline req/s (medians). */
  ratio: number
  /** The same ratio per adjacent pair of rounds: their spread shows how noisy the machine was. */
  roundRatios: number[]
  /** p50 one request at a time (interleaved rounds at 1 connection), for scenarios with a latency goal. */
  latency?: { goalMs: number; cartageP50: number; baselineP50: number }
  /** Successful responses each server gave in this scenario, warm-up included (for profiles). */
  served: { cartage: number; baseline: number }
}

export interface DatabaseResult {
  database: 'postgres' | 'embedded'
  skipped?: string
  scenarios: ScenarioResult[]
  /** `os.loadavg()` (1, 5, 15 min) before and after measuring: a busy machine explains a spread. */
  loadAverage?: { before: string; after: string }
}

const num = (value: number, digits = 0) => value.toFixed(digits)
const NAME_WIDTH = 30
const row = (cells: string[]) =>
  cells.map((cell, i) => (i < 2 ? cell.padEnd(i === 0 ? NAME_WIDTH : 10) : cell.padStart(10))).join('')

export function goalText(result: ScenarioResult): string {
  const goal = result.kind === 'read' ? READ_GOAL : WRITE_GOAL
  return `goal: ${result.kind}s >= ${goal}x baseline: ${result.ratio >= goal ? 'met' : 'NOT met'}`
}

export function printDatabase(result: DatabaseResult) {
  process.stdout.write(formatDatabase(result))
}

/**
 * API key over bearer (Cartage req/s) for each read measured with both. Not for writes: each write
 * scenario grows the table the next one writes to, so the later one is slower whatever its
 * credential; each write is compared with its own baseline in the same rounds instead.
 */
function credentialRatios(result: DatabaseResult): string {
  let text = ''
  for (const apikey of result.scenarios.filter((s) => s.name.endsWith('-apikey') && s.kind === 'read')) {
    const bearer = result.scenarios.find((s) => s.name === apikey.name.replace(/-apikey$/, '-bearer'))
    if (!bearer || bearer.cartage.median.rps === 0) continue
    const ratio = apikey.cartage.median.rps / bearer.cartage.median.rps
    text += `${apikey.name.replace(/-apikey$/, '').padEnd(NAME_WIDTH)}API key / bearer ${num(ratio, 3)}x (goal >= 0.9x: ${ratio >= 0.9 ? 'met' : 'NOT met'})\n`
  }
  return text
}

export function formatDatabase(result: DatabaseResult): string {
  let out = ''
  const write = (text: string) => {
    out += text
  }
  write(`\n== ${result.database} ==\n`)
  if (result.skipped) {
    write(`skipped: ${result.skipped}\n`)
    return out
  }
  if (result.loadAverage)
    write(`load average before ${result.loadAverage.before}, after ${result.loadAverage.after}\n`)
  write(`${row(['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'failures'])}\n`)
  for (const s of result.scenarios) {
    for (const [server, { median }] of [
      ['cartage', s.cartage],
      ['baseline', s.baseline],
    ] as const) {
      const name = server === 'cartage' ? s.name : ''
      write(
        `${row([name, server, num(median.rps), num(median.p50, 2), num(median.p99, 2), String(median.failures)])}\n`,
      )
    }
    const failed = s.cartage.median.failures + s.baseline.median.failures
    if (failed > 0) write(`${''.padEnd(NAME_WIDTH)}WARNING: ${failed} failed requests; not comparable\n`)
    const spread = s.roundRatios.map((r) => num(r, 2)).join(', ')
    write(`${''.padEnd(NAME_WIDTH)}ratio ${num(s.ratio, 3)}x  (${goalText(s)}; per round: ${spread})\n`)
    if (s.latency)
      write(
        `${''.padEnd(NAME_WIDTH)}p50 one request at a time: cartage ${num(s.latency.cartageP50, 2)} ms, baseline ` +
          `${num(s.latency.baselineP50, 2)} ms (goal < ${s.latency.goalMs} ms: ` +
          `${s.latency.cartageP50 < s.latency.goalMs ? 'met' : 'NOT met'})\n`,
      )
  }
  write(credentialRatios(result))
  return out
}
