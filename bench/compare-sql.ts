import { type Fresh, type ResolvedSeed, type Scenario, type Statement, sqlOf } from './scenario-types.js'
import type { TracedStatement } from './sql-trace.js'

/** Stands for a value made per request (new id, counter-based code): it matches any text. */
const FRESH = '<fresh>'
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** As the trace stores it: Buffers as { type, data }, Dates as ISO text. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null)) as unknown

function sameParam(expected: unknown, actual: unknown): boolean {
  if (expected instanceof Date) return typeof actual === 'string' && ISO_TIME.test(actual)
  if (typeof expected === 'string' && expected.includes(FRESH)) {
    const pattern = new RegExp(`^${expected.split(FRESH).map(escapeRegExp).join('.+')}$`)
    return typeof actual === 'string' && pattern.test(actual)
  }
  return JSON.stringify(asJson(expected)) === JSON.stringify(actual)
}

const bySql = (a: { sql: string }, b: { sql: string }) => (a.sql < b.sql ? -1 : a.sql > b.sql ? 1 : 0)

/** What differs between a scenario's baseline and the statements Cartage sent for one request. */
export function compareStatements(
  scenario: Scenario,
  seed: ResolvedSeed,
  captured: readonly TracedStatement[],
): string[] {
  const fresh: Fresh = { id: () => FRESH, now: new Date(0), previous: [{ last_value: FRESH }] }
  const problems: string[] = []
  const total = scenario.baseline.steps.flat().length
  if (captured.length !== total)
    problems.push(`baseline has ${total} statements, Cartage sent ${captured.length}`)
  let offset = 0
  for (const step of scenario.baseline.steps) {
    // Statements sent together may reach the driver in either order.
    const want = step
      .map((s: Statement) => ({
        sql: sqlOf(s, seed),
        params: s.params(seed, fresh),
        relaxed: s.relaxed === true,
        unchecked: s.unchecked ?? [],
      }))
      .sort(bySql)
    const got = captured.slice(offset, offset + step.length).sort(bySql)
    want.forEach((statement, i) => {
      const actual = got[i]
      const n = offset + i + 1
      if (!actual) return
      if (actual.sql !== statement.sql)
        problems.push(`statement ${n}: SQL differs: ${JSON.stringify(statement.sql)}`)
      else if ((actual.relaxed === true) !== statement.relaxed)
        problems.push(`statement ${n}: sent on the other pool`)
      else if (
        actual.params.length !== statement.params.length ||
        statement.params.some((p, j) => !statement.unchecked.includes(j) && !sameParam(p, actual.params[j]))
      )
        problems.push(`statement ${n}: parameters differ: ${JSON.stringify(asJson(statement.params))}`)
    })
    offset += step.length
  }
  return problems
}
