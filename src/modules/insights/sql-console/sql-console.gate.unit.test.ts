import { describe, expect, it } from 'vitest'
import { MODULES } from '../../../apps/modules.js'
import { consoleViewsOf } from '../../../platform/module.js'
import { checkQuery, GateError } from './sql-console.gate.js'

const VIEWS = consoleViewsOf(MODULES)

const refusal = async (query: string, parameters = 0) => {
  try {
    await checkQuery(query, parameters, VIEWS)
    return null
  } catch (error) {
    if (error instanceof GateError) return error.message
    throw error
  }
}

describe('SQL console gate (parser layer alone)', () => {
  it('accepts plain SELECTs and returns the statement without its semicolon', async () => {
    expect(await checkQuery('SELECT count(*) FROM orders;', 0, VIEWS)).toBe('SELECT count(*) FROM orders')
    expect(
      await refusal('WITH t AS (SELECT id FROM customers) SELECT * FROM t JOIN orders ON true'),
    ).toBeNull()
    expect(await refusal('SELECT coalesce(max(total), 0) FROM orders WHERE status = $1', 1)).toBeNull()
  })

  it('refuses what is not a plain SELECT, naming functions and relations', async () => {
    expect(await refusal('SELECT FROM WHERE')).toMatch(/position \d+/)
    expect(await refusal('SELECT 1; SELECT 2')).toMatch(/one statement/)
    expect(await refusal('DELETE FROM orders')).toMatch(/only SELECT/)
    expect(await refusal('SELECT pg_sleep(1)')).toMatch(/pg_sleep/)
    expect(await refusal('SELECT * FROM global.users')).toMatch(/global\.users/)
    expect(await refusal('SELECT * FROM pg_class')).toMatch(/pg_class/)
    expect(await refusal('WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r')).toMatch(/recursive/)
    expect(await refusal('SELECT * FROM orders FOR UPDATE')).toMatch(/locking/)
    expect(await refusal('SELECT * INTO x FROM orders')).toMatch(/INTO/)
    expect(await refusal('SELECT * FROM generate_series(1, 10)')).toBeNull()
    expect(await refusal('SELECT * FROM generate_series(10, 1, -1) AS g(n)')).toBeNull()
    expect(await refusal('SELECT * FROM generate_series(1, 100001)')).toMatch(/100001 rows/)
    expect(await refusal('SELECT * FROM generate_series(1, 10, 0)')).toMatch(/whole-number/)
    expect(await refusal('SELECT * FROM orders, generate_series(1, total)')).toMatch(/whole-number/)
    expect(await refusal('SELECT generate_series(1, 10)')).toMatch(/generate_series is not allowed/)
    expect(await refusal("SELECT * FROM pg_ls_dir('.')")).toMatch(/pg_ls_dir/)
    expect(await refusal('SELECT $1')).toMatch(/\$1/)
    expect(await refusal('WITH d AS (DELETE FROM orders RETURNING 1) SELECT * FROM d')).toMatch(/inside WITH/)
  })

  it('resolves every relation name in its scope, as PostgreSQL does', async () => {
    // [query, the relation named in the refusal]: each one reads a hidden table under a CTE's name.
    const shadowed: [string, string][] = [
      // A non-recursive WITH item does not see itself: the inner name is the real table.
      [
        'WITH webhook_endpoints AS (SELECT * FROM webhook_endpoints) SELECT * FROM webhook_endpoints',
        'webhook_endpoints',
      ],
      ['WITH pg_authid AS (SELECT * FROM pg_authid) SELECT rolname FROM pg_authid', 'pg_authid'],
      // Nor the items after it.
      ['WITH a AS (SELECT * FROM settings), settings AS (SELECT 1) SELECT * FROM a', 'settings'],
      // A CTE of a subquery (or of another WITH item) is not seen outside it.
      ['WITH a AS (WITH audit_log AS (SELECT 1) SELECT 1) SELECT * FROM audit_log', 'audit_log'],
      ['SELECT * FROM (WITH audit_log AS (SELECT 1) SELECT 1) s, audit_log', 'audit_log'],
      [
        'SELECT (SELECT count(*) FROM notifications), (WITH notifications AS (SELECT 1) SELECT 1)',
        'notifications',
      ],
      // A subquery's alias names no relation.
      ['SELECT * FROM (SELECT 1) AS settings WHERE EXISTS (SELECT 1 FROM settings)', 'settings'],
      // Each branch of a set operation is a SELECT with its own scope.
      ['(WITH settings AS (SELECT * FROM settings) SELECT * FROM settings) UNION SELECT 1', 'settings'],
      ['SELECT 1 UNION (WITH s AS (SELECT 1) SELECT * FROM s) UNION SELECT * FROM s', 's'],
      // A function in FROM named like a table, and a CTE named like the one function allowed there.
      ['SELECT * FROM webhook_endpoints()', 'webhook_endpoints'],
      ['WITH generate_series AS (SELECT * FROM settings) SELECT * FROM generate_series', 'settings'],
      // Unquoted names fold to lower case, quoted ones keep theirs: "Settings" is not settings.
      ['WITH "Settings" AS (SELECT 1) SELECT * FROM settings', 'settings'],
      ['WITH Settings AS (SELECT * FROM SETTINGS) SELECT * FROM settings', 'settings'],
      ['WITH settings AS (SELECT * FROM "settings") SELECT * FROM SETTINGS', 'settings'],
      ['WITH x AS (SELECT 1) SELECT * FROM "X"', 'X'],
      ['SELECT * FROM "Customers"', 'Customers'],
      // Names an object's prototype has are no exposed tables.
      ['SELECT * FROM constructor', 'constructor'],
    ]
    for (const [query, relation] of shadowed)
      expect(await refusal(query), query).toMatch(new RegExp(`\\b${relation}\\b`))
    // What PostgreSQL does resolve to a visible CTE stays allowed.
    for (const query of [
      'WITH a AS (SELECT 1 AS n), b AS (SELECT * FROM a) SELECT * FROM b UNION SELECT * FROM a',
      'WITH a AS (SELECT 1) SELECT * FROM (WITH b AS (SELECT * FROM a) SELECT * FROM b) x',
      'WITH customers AS (SELECT * FROM customers WHERE status = 1) SELECT count(*) FROM customers',
      'WITH "X" AS (SELECT 1) SELECT * FROM "X"',
      'WITH x AS (SELECT 1) SELECT * FROM "x", X',
      'SELECT * FROM orders o WHERE EXISTS (WITH s AS (SELECT 1) SELECT * FROM s, shipments)',
    ])
      expect(await refusal(query), query).toBeNull()
  })

  it('checks each branch of a set operation as a SELECT', async () => {
    expect(
      await refusal(
        '(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r) UNION SELECT 1',
      ),
    ).toMatch(/recursive/)
    expect(await refusal('(SELECT * INTO x FROM orders) UNION SELECT 1')).toMatch(/INTO/)
  })
})
