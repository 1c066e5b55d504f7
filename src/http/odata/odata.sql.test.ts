import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/harness.js'
import type { Database } from '../../db/database.js'
import { shortId } from '../../db/ids.js'
import { buildFilter, buildOrderBy, type FieldMap } from './index.js'

// Runs the generated SQL on the database under test (embedded or PostgreSQL), so casts, parameter
// type inference, ILIKE escaping and NULL semantics are checked by the database itself.

const fields = {
  ref: { column: 'c.ref', type: 'string' },
  name: { column: 'c.name', type: 'string' },
  weight: { column: 'c.weight', type: 'number' },
  active: { column: 'c.active', type: 'boolean' },
  createdAt: { column: 'c.date_created', type: 'datetime' },
  id: { column: 'c.id', type: 'uuid' },
  status: { column: 'c.status', type: 'enum', enumValues: ['Draft', 'InTransit', 'Delivered'] },
  metadata: { column: 'c.metadata', type: 'map' },
} as const satisfies FieldMap

const ID_A = '01890a5d-ac96-774b-bcce-b302099a8057'

let database: Database
let closeDatabase: () => Promise<void>
let db: Kysely<{ items: { ref: string } }>
const schema = `odata_${shortId(6)}`

beforeAll(async () => {
  ;({ database, close: closeDatabase } = await openTestDatabase())
  db = database.db.withSchema(schema) as unknown as Kysely<{ items: { ref: string } }>
  await sql
    .raw(`
    create schema ${schema};
    set search_path to ${schema};
    create table items (
      ref text primary key, name text, weight integer, active boolean, date_created timestamptz,
      id uuid, status text not null, metadata jsonb not null default '{}'
    );
    insert into items values
      ('a', 'Alpha 50%', 10, true, '2026-01-31T09:15:00Z', '${ID_A}', 'Draft', '{"region":"north"}'),
      ('b', 'beta_x', 20, false, '2026-02-01T00:00:00Z', gen_random_uuid(), 'InTransit', '{"region":"south"}'),
      ('c', null, null, null, null, null, 'Delivered', '{}'),
      ('d', 'Gamma\\', 5, true, '2026-02-01T00:00:00.000001Z', gen_random_uuid(), 'Draft', '{"region":null}');
    set search_path to default;
  `)
    .execute(database.db)
}, 60_000)

afterAll(async () => {
  await sql.raw(`drop schema ${schema} cascade`).execute(database.db)
  await closeDatabase()
})

/** The refs of the rows matching `filter`, in ref order unless `orderby` is given. */
async function refs(filter: string, orderby = 'ref'): Promise<string[]> {
  let query = db.selectFrom('items as c').select('c.ref').where(buildFilter(filter, fields))
  for (const term of buildOrderBy(orderby, fields)) {
    query = query.orderBy(sql.ref(term.column), term.direction)
  }
  const rows = await query.execute()
  return rows.map((row) => row.ref)
}

describe('generated SQL on PostgreSQL', () => {
  it.each([
    ["name eq 'beta_x'", ['b']],
    ["name ne 'beta_x'", ['a', 'c', 'd']], // NULL name counts as "not equal"
    ['name eq null', ['c']],
    ['weight gt 9.5', ['a', 'b']], // numeric parameter against an integer column
    ['not (weight gt 9)', ['c', 'd']], // NULL weight: the comparison is false, so its negation holds
    ['weight in (5, 20)', ['b', 'd']],
    ['active eq false', ['b']],
    ['active ne true', ['b', 'c']],
    ["contains(name,'50%')", ['a']], // % matched literally
    ["contains(name,'_')", ['b']], // _ matched literally
    ["endswith(name,'\\')", ['d']], // backslash matched literally
    ["startswith(name,'ALPHA')", ['a']], // case-insensitive
    ["metadata/region eq 'north'", ['a']],
    ['metadata/region eq null', ['c', 'd']], // missing key and JSON null
    ["metadata/region ne 'north'", ['b', 'c', 'd']],
    ["contains(metadata/region,'TH')", ['a', 'b']],
    ['createdAt ge 2026-02-01', ['b', 'd']], // a bare date is midnight UTC
    ['createdAt le 2026-01-31T10:15:00+01:00', ['a']], // same instant as 09:15Z
    ["createdAt gt '2026-02-01T00:00:00Z'", ['d']], // microseconds are kept
    [`id eq ${ID_A.toUpperCase()}`, ['a']],
    ["status eq 'draft'", ['a', 'd']],
    ["status in (1, 'DELIVERED')", ['b', 'c']],
    ["name eq 'x'' or 1=1 --'", []],
  ] as const)('%s', async (filter, expected) => {
    expect(await refs(filter)).toEqual(expected)
  })

  it('orders by the requested columns', async () => {
    expect(await refs('', 'weight desc, ref')).toEqual(['c', 'b', 'a', 'd']) // NULLs first when descending
    expect(await refs('active eq true', 'createdAt desc')).toEqual(['d', 'a'])
  })
})
