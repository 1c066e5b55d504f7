import { describe, expect, it } from 'vitest'
import { checkQuery, GateError } from './sql-console.gate.js'

const refusal = async (query: string, parameters = 0) => {
  try {
    await checkQuery(query, parameters)
    return null
  } catch (error) {
    if (error instanceof GateError) return error.message
    throw error
  }
}

describe('SQL console gate (parser layer alone)', () => {
  it('accepts plain SELECTs and returns the statement without its semicolon', async () => {
    expect(await checkQuery('SELECT count(*) FROM orders;', 0)).toBe('SELECT count(*) FROM orders')
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
})
