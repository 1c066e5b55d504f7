import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely'
import { describe, expect, it } from 'vitest'
import { SchemaStatement } from './schema-statements.js'
import type { Tables } from './tables.js'

const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

const byName = (limit?: number) =>
  new SchemaStatement(
    (d, schemaName, v: { businessId: string; limit: number }) =>
      d
        .withSchema(schemaName)
        .selectFrom('customers')
        .select('id')
        .where('business_id', '=', v.businessId)
        .where('status', '=', 'Active')
        .limit(v.limit),
    limit,
  )

describe('SchemaStatement', () => {
  it('compiles the same text as Kysely, with named values filled in and constants kept', () => {
    const statement = byName()
    const direct = db
      .withSchema('org_a')
      .selectFrom('customers')
      .select('id')
      .where('business_id', '=', 'b1')
      .where('status', '=', 'Active')
      .limit(5)
      .compile()
    const cached = statement.compiled(db, 'org_a', { businessId: 'b1', limit: 5 })
    expect(cached.sql).toBe(direct.sql)
    expect(cached.parameters).toEqual(['b1', 'Active', 5])
    const again = statement.compiled(db, 'org_a', { businessId: 'b2', limit: 7 })
    expect(again.parameters).toEqual(['b2', 'Active', 7])
    expect(statement.compiled(db, 'org_b', { businessId: 'b3', limit: 1 }).sql).toContain(
      '"org_b"."customers"',
    )
  })

  it('keeps at most its limit of schemas, dropping the least recently used', () => {
    const statement = byName(3)
    for (const schema of ['s1', 's2', 's3']) statement.compiled(db, schema, { businessId: 'b', limit: 1 })
    statement.compiled(db, 's1', { businessId: 'b', limit: 1 })
    statement.compiled(db, 's4', { businessId: 'b', limit: 1 })
    expect(statement.size).toBe(3)
    // s2 was the least recently used; s1 was touched again and stays.
    const entries = (statement as unknown as { entries: Map<string, unknown> }).entries
    expect([...entries.keys()]).toEqual(['s3', 's1', 's4'])
  })
})
