import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../errors.js'
import {
  buildFilter,
  buildOrderBy,
  type FieldMap,
  MAX_DEPTH,
  MAX_IN_ITEMS,
  MAX_INPUT_LENGTH,
} from './index.js'

// A real compiler with a driver that never connects: we assert the exact SQL PostgreSQL would get.
const db = new Kysely<{ t: { id: string } }>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

const fields = {
  name: { column: 'name', type: 'string' },
  email: { column: 'c.email', type: 'string', sortable: false },
  weight: { column: 'weight', type: 'number' },
  active: { column: 'active', type: 'boolean' },
  createdAt: { column: 'c.date_created', type: 'datetime' },
  id: { column: 'id', type: 'uuid' },
  status: { column: 'status', type: 'enum', enumValues: ['Draft', 'InTransit', 'Delivered'] },
  metadata: { column: 'metadata', type: 'map' },
} as const satisfies FieldMap

const PREFIX = 'select * from "t" as "c" where '
const GUID = '01890a5d-ac96-774b-bcce-b302099a8057'

/** The WHERE clause and parameters of a query filtered by `filter`. */
function where(filter: string) {
  const q = db.selectFrom('t as c').selectAll().where(buildFilter(filter, fields)).compile()
  expect(q.sql.startsWith(PREFIX)).toBe(true)
  return { sql: q.sql.slice(PREFIX.length), params: q.parameters }
}

function errorOf(run: () => unknown): AppError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return error as AppError
  }
  throw new Error('expected an AppError')
}

/** Asserts a 400 for `param` and returns the single reason's message. */
function failure(param: '$filter' | '$orderby', run: () => unknown): string {
  const error = errorOf(run)
  expect(error.status).toBe(400)
  expect(error.code).toBe('validation_failed')
  expect(error.reasons).toHaveLength(1)
  expect(error.reasons[0]?.field).toBe(param)
  // Column names are internal; messages may only name API fields.
  expect(error.reasons[0]?.message).not.toMatch(/c\.email|date_created/)
  return error.reasons[0]?.message ?? ''
}

const filterError = (filter: string) => failure('$filter', () => buildFilter(filter, fields))
const orderError = (orderby: string) => failure('$orderby', () => buildOrderBy(orderby, fields))

describe('$filter comparisons', () => {
  it.each([
    ['eq', '='],
    ['ne', 'is distinct from'],
    ['gt', '>'],
    ['ge', '>='],
    ['lt', '<'],
    ['le', '<='],
  ])('string %s -> %s with the value bound', (op, sqlOp) => {
    expect(where(`name ${op} 'Ann'`)).toEqual({ sql: `"name" ${sqlOp} $1`, params: ['Ann'] })
  })

  it('unescapes doubled quotes in strings', () => {
    expect(where("name eq 'O''Brien'''")).toEqual({ sql: '"name" = $1', params: ["O'Brien'"] })
  })

  it('qualified columns become qualified refs', () => {
    expect(where("email eq 'a@b.c'").sql).toBe('"c"."email" = $1')
  })

  it('looks fields, operators and keywords up in any case', () => {
    expect(where("NAME EQ 'x' OR Weight Gt 1")).toEqual({
      sql: '("name" = $1 or "weight" > $2::numeric)',
      params: ['x', '1'],
    })
  })

  it.each([
    ['42', '42'],
    ['-3.25', '-3.25'],
    ['0.5', '0.5'],
  ])('number %s is bound as exact text cast to numeric', (literal, param) => {
    expect(where(`weight le ${literal}`)).toEqual({ sql: '"weight" <= $1::numeric', params: [param] })
  })

  it('booleans, any case', () => {
    expect(where('active eq TRUE')).toEqual({ sql: '"active" = $1::boolean', params: [true] })
    expect(where('active ne false')).toEqual({
      sql: '"active" is distinct from $1::boolean',
      params: [false],
    })
  })

  it.each([
    ['2026-01-31T09:15:00Z', '2026-01-31T09:15:00Z'],
    ['2026-01-31T09:15:00.123456+01:00', '2026-01-31T09:15:00.123456+01:00'],
    ['2026-01-31T09:15Z', '2026-01-31T09:15Z'],
    ['2026-01-31t09:15:00z', '2026-01-31T09:15:00Z'],
    ['2026-01-31', '2026-01-31T00:00:00Z'],
    ['2024-02-29', '2024-02-29T00:00:00Z'],
    ["'2026-01-31T09:15:00-05:30'", '2026-01-31T09:15:00-05:30'],
  ])('datetime %s binds %s as timestamptz', (literal, param) => {
    expect(where(`createdAt ge ${literal}`)).toEqual({
      sql: '"c"."date_created" >= $1::timestamptz',
      params: [param],
    })
  })

  it('uuids unquoted or quoted, normalised to lower case', () => {
    expect(where(`id eq ${GUID}`)).toEqual({ sql: '"id" = $1::uuid', params: [GUID] })
    expect(where(`id eq '${GUID.toUpperCase()}'`).params).toEqual([GUID])
    expect(where('id eq ABCDEF01-ac96-774b-bcce-b302099a8057').params).toEqual([
      'abcdef01-ac96-774b-bcce-b302099a8057',
    ])
  })

  it('enums bind the declared name, matched by any case or by 0-based index', () => {
    expect(where("status eq 'intransit'")).toEqual({ sql: '"status" = $1', params: ['InTransit'] })
    expect(where('status ne 2')).toEqual({ sql: '"status" is distinct from $1', params: ['Delivered'] })
    expect(where('status eq 0').params).toEqual(['Draft'])
  })

  it('eq null and ne null become IS NULL and IS NOT NULL without parameters', () => {
    expect(where('name eq null')).toEqual({ sql: '"name" is null', params: [] })
    expect(where('createdAt ne NULL')).toEqual({ sql: '"c"."date_created" is not null', params: [] })
    expect(where('metadata/region eq null')).toEqual({
      sql: '("metadata" ->> $1::text) is null',
      params: ['region'],
    })
  })

  it('map fields bind both the key and the value', () => {
    expect(where("metadata/region eq 'north'")).toEqual({
      sql: '("metadata" ->> $1::text) = $2',
      params: ['region', 'north'],
    })
    expect(where("Metadata/cost-centre.v_2 gt 'b'")).toEqual({
      sql: '("metadata" ->> $1::text) > $2',
      params: ['cost-centre.v_2', 'b'],
    })
    expect(where(`metadata/${GUID} eq 'x'`).params).toEqual([GUID, 'x'])
  })

  it('blank filter matches everything', () => {
    expect(where('')).toEqual({ sql: 'true', params: [] })
    expect(where('  \t')).toEqual({ sql: 'true', params: [] })
  })
})

describe('$filter logic and precedence', () => {
  it('and binds tighter than or', () => {
    expect(where("name eq 'a' or name eq 'b' and weight gt 1")).toEqual({
      sql: '("name" = $1 or ("name" = $2 and "weight" > $3::numeric))',
      params: ['a', 'b', '1'],
    })
  })

  it('parentheses override precedence', () => {
    expect(where("(name eq 'a' or name eq 'b') and weight gt 1").sql).toBe(
      '(("name" = $1 or "name" = $2) and "weight" > $3::numeric)',
    )
  })

  it('chains flatten into one group', () => {
    expect(where('weight gt 1 and weight lt 9 and active eq true').sql).toBe(
      '("weight" > $1::numeric and "weight" < $2::numeric and "active" = $3::boolean)',
    )
  })

  it('not binds tighter than and, and treats a NULL comparison as false', () => {
    expect(where("not name eq 'a' and weight gt 1").sql).toBe(
      '(not coalesce("name" = $1, false) and "weight" > $2::numeric)',
    )
    expect(where("NOT (name eq 'a' or active eq true)").sql).toBe(
      'not coalesce(("name" = $1 or "active" = $2::boolean), false)',
    )
    expect(where("not not name eq 'a'").sql).toBe('not coalesce(not coalesce("name" = $1, false), false)')
  })

  it('needs no spaces around parentheses', () => {
    expect(where("(name eq 'a')and(weight gt 1)").sql).toBe('("name" = $1 and "weight" > $2::numeric)')
  })

  it(`accepts nesting up to ${MAX_DEPTH} levels`, () => {
    const nested = `${'('.repeat(MAX_DEPTH)}name eq 'a'${')'.repeat(MAX_DEPTH)}`
    expect(where(nested).sql).toBe('"name" = $1')
    expect(where(`${'not '.repeat(MAX_DEPTH)}name eq 'a'`).params).toEqual(['a'])
  })
})

describe('$filter functions and in', () => {
  it.each([
    ['contains', '%ab%'],
    ['startswith', 'ab%'],
    ['endswith', '%ab'],
  ])('%s -> ilike with the pattern bound', (fn, pattern) => {
    expect(where(`${fn}(name,'ab')`)).toEqual({ sql: `"name" ilike $1 escape '\\'`, params: [pattern] })
  })

  it('escapes %, _ and backslash so they match literally', () => {
    expect(where("contains(name,'50%_a\\b')").params).toEqual(['%50\\%\\_a\\\\b%'])
  })

  it('works on map fields, in any case, and under not', () => {
    expect(where("not Contains(metadata/region, 'nor')")).toEqual({
      sql: `not coalesce(("metadata" ->> $1::text) ilike $2 escape '\\', false)`,
      params: ['region', '%nor%'],
    })
  })

  it('in binds each value with the same cast as eq', () => {
    expect(where("name in ('a', 'b')")).toEqual({ sql: '"name" in ($1, $2)', params: ['a', 'b'] })
    expect(where('weight IN (1,2.5)')).toEqual({
      sql: '"weight" in ($1::numeric, $2::numeric)',
      params: ['1', '2.5'],
    })
    expect(where("status in ('DRAFT', 2)").params).toEqual(['Draft', 'Delivered'])
    expect(where(`id in (${GUID})`)).toEqual({ sql: '"id" in ($1::uuid)', params: [GUID] })
  })

  it(`in accepts up to ${MAX_IN_ITEMS} values`, () => {
    const list = Array.from({ length: MAX_IN_ITEMS }, (_, i) => i).join(',')
    expect(where(`weight in (${list})`).params).toHaveLength(MAX_IN_ITEMS)
  })
})

describe('$filter errors', () => {
  it.each([
    ["(name eq 'a'", "expected ')' at position 13, got end of input"],
    ["name eq 'a')", "expected 'and', 'or' or end of input at position 12, got ')'"],
    ["name eq 'a' foo", "expected 'and', 'or' or end of input at position 13, got 'foo'"],
    ["name eq 'a' and", 'expected a field name at position 16, got end of input'],
    ['name eq', 'expected a value at position 8, got end of input'],
    ["name 'a'", "expected an operator (eq, ne, gt, ge, lt, le, in) at position 6, got 'a'"],
    ["name like 'a'", "got 'like'"],
    ['name', 'expected an operator (eq, ne, gt, ge, lt, le, in) at position 5, got end of input'],
    ["name eq 'abc", 'unterminated string starting at position 9'],
    ["name eq 'a' ; drop", "unexpected ';' at position 13"],
    ['weight eq 1e5', "unexpected '1e5' at position 11"],
    ["name eq 'a\u0000'", 'NUL character at position 11'],
    ["tolower(name) eq 'a'", "unsupported function 'tolower' at position 1; supported: contains"],
    ["contains(name 'a')", "expected ',' at position 15"],
    ["contains(name,'a'", "expected ')' at position 18"],
    ['name in ()', "'in' needs at least one value at position 10"],
    ["name in 'a'", "expected '(' after 'in' at position 9"],
    ["name in ('a' 'b')", "expected ',' or ')' at position 14"],
    ["metadata/ eq 'x'", "expected a key after '/' at position 9"],
    ['eq eq 1', "unknown field 'eq' at position 1"],
  ])('%s -> %s', (filter, message) => {
    expect(filterError(filter)).toContain(message)
  })

  it('unknown fields are named with the allowed API names, not columns', () => {
    expect(filterError("foo eq 'x'")).toBe(
      "unknown field 'foo' at position 1; allowed: name, email, weight, active, createdAt, id, status, metadata",
    )
  })

  it.each([
    ['name eq 5', "field 'name' expects a quoted string such as 'text', got '5' at position 9"],
    ['name eq true', "field 'name' expects a quoted string"],
    ["weight eq '5'", "field 'weight' expects a number such as 42 or 3.5, got '5' at position 11"],
    ['active eq 1', "field 'active' expects true or false, got '1'"],
    ["active eq 'true'", "field 'active' expects true or false, got 'true'"],
    ['createdAt eq 2026-02-30', "field 'createdAt' expects a date-time such as 2026-01-31T09:15:00Z"],
    ['createdAt eq 2026-13-01', "got '2026-13-01' at position 14"],
    ['createdAt eq 0000-01-01', "got '0000-01-01'"],
    ['createdAt eq 2025-02-29', "got '2025-02-29'"],
    ['createdAt eq 2026-01-31T24:00:00Z', "got '2026-01-31T24:00:00Z'"],
    ["createdAt eq 'yesterday'", "got 'yesterday'"],
    ['createdAt eq 20260131', "got '20260131'"],
    ["id eq 'not-a-guid'", "field 'id' expects a GUID"],
    ['id eq 42', "field 'id' expects a GUID"],
    ["status eq 'Lost'", "field 'status' expects one of Draft, InTransit, Delivered (or its 0-based index)"],
    ['status eq 3', "got '3'"],
    ['status eq -1', "got '-1'"],
    ['status eq 1.0', "got '1.0'"],
    ['metadata/region eq 1', "field 'metadata' expects a quoted string"],
  ])('type mismatch: %s', (filter, message) => {
    expect(filterError(filter)).toContain(message)
  })

  it.each([
    ['active gt true', "'gt' at position 8 is not allowed on boolean field 'active'; use eq or ne"],
    ["status LE 'Draft'", "'LE' at position 8 is not allowed on enum field 'status'"],
    ['name gt null', "'gt' cannot compare with null at position 9; use eq or ne"],
    ['weight in (1, null)', "'in' values cannot be null at position 15"],
    ["contains(weight,'1')", "contains() at position 1 needs a string field; 'weight' is number"],
    ["startswith(id,'0')", "'id' is uuid"],
    ['endswith(name,5)', "endswith() needs a quoted string, got '5' at position 15"],
    ['contains(name,null)', 'contains() cannot be null at position 15'],
  ])('operator not valid for the type: %s', (filter, message) => {
    expect(filterError(filter)).toContain(message)
  })

  it('map fields need a key and other fields take none', () => {
    expect(filterError("metadata eq 'x'")).toBe(
      "field 'metadata' at position 1 needs a key, e.g. 'metadata/someKey'",
    )
    expect(filterError("name/first eq 'x'")).toBe("field 'name' at position 1 cannot be followed by '/'")
  })

  it('limits input length, nesting and in-list size', () => {
    const long = `name eq '${'x'.repeat(MAX_INPUT_LENGTH)}'`
    expect(filterError(long)).toBe(
      `$filter is too long (${long.length} characters; at most ${MAX_INPUT_LENGTH})`,
    )
    const deep = `${'('.repeat(MAX_DEPTH + 1)}name eq 'a'${')'.repeat(MAX_DEPTH + 1)}`
    expect(filterError(deep)).toBe(
      `expression is nested deeper than ${MAX_DEPTH} levels at position ${MAX_DEPTH + 1}`,
    )
    expect(filterError(`${'not '.repeat(MAX_DEPTH + 1)}name eq 'a'`)).toContain('nested deeper')
    const list = Array.from({ length: MAX_IN_ITEMS + 1 }, (_, i) => i).join(',')
    expect(filterError(`weight in (${list})`)).toBe(
      `'in' list starting at position 11 has more than ${MAX_IN_ITEMS} values`,
    )
  })

  it('shortens long tokens in messages', () => {
    const message = filterError(`name eq ${'a'.repeat(100)}`)
    expect(message).toBe(`expected a value at position 9, got '${'a'.repeat(40)}...'`)
  })
})

describe('$filter injection attempts', () => {
  it('quotes inside string literals stay inside the parameter', () => {
    expect(where("name eq 'x'' or 1=1 --'")).toEqual({ sql: '"name" = $1', params: ["x' or 1=1 --"] })
    expect(where("contains(name,'%''; drop table t; --')").params).toEqual(["%\\%'; drop table t; --%"])
  })

  it('map keys are parameters, never SQL', () => {
    expect(where("metadata/--x eq 'y'")).toEqual({
      sql: '("metadata" ->> $1::text) = $2',
      params: ['--x', 'y'],
    })
  })

  it.each([
    `"name" eq 'x'`,
    `name" eq 'x'`,
    "name; drop table t eq 'x'",
    "name eq 'x'; drop table t; --",
    "name eq 'x' or 1=1",
    "name eq 'x' -- comment",
    "metadata/a'b eq 'x'",
    "metadata/a;b eq 'x'",
    `metadata/x") eq 'x'`,
    "name eq 'x' union select 1",
    'name eq $1',
    "name eq 'x' /* c */",
  ])('%s is rejected with a 400', (filter) => {
    filterError(filter)
  })
})

describe('$orderby', () => {
  it('parses terms with optional, case-insensitive directions', () => {
    expect(buildOrderBy('name, createdAt DESC,weight Asc', fields)).toEqual([
      { column: 'name', direction: 'asc' },
      { column: 'c.date_created', direction: 'desc' },
      { column: 'weight', direction: 'asc' },
    ])
    expect(buildOrderBy('  NAME   desc ', fields)).toEqual([{ column: 'name', direction: 'desc' }])
  })

  it('returns no terms for an empty or blank value', () => {
    expect(buildOrderBy('', fields)).toEqual([])
    expect(buildOrderBy('   ', fields)).toEqual([])
  })

  it('terms feed Kysely through sql.ref', () => {
    let q = db.selectFrom('t as c').selectAll()
    for (const term of buildOrderBy('createdAt desc, name', fields)) {
      q = q.orderBy(sql.ref(term.column), term.direction)
    }
    expect(q.compile().sql).toBe('select * from "t" as "c" order by "c"."date_created" desc, "name" asc')
  })

  it(`allows 5 terms, not 6`, () => {
    expect(buildOrderBy('name, weight, active, createdAt, id', fields)).toHaveLength(5)
    expect(orderError('name, weight, active, createdAt, id, status')).toBe(
      'at most 5 sort fields are allowed',
    )
  })

  it.each([
    ['foo', "unknown field 'foo' at position 1; allowed: name, weight, active, createdAt, id, status"],
    ['email', "field 'email' at position 1 cannot be sorted; sortable: name, weight"],
    ['weight, metadata', "field 'metadata' at position 9 cannot be sorted"],
    ['metadata/region desc', "field 'metadata' at position 1 cannot be sorted"],
    ['name/x', "field 'name' at position 1 cannot be followed by '/'"],
    ['name, NAME desc', "field 'name' at position 7 is repeated"],
    ['name,', 'expected a field name at position 6, got end of input'],
    ['name,,weight', "expected a field name at position 6, got ','"],
    ['name up', "expected 'asc', 'desc', ',' or end of input at position 6, got 'up'"],
    ['name asc desc', "at position 10, got 'desc'"],
    ['name; drop table t', "unexpected ';' at position 5"],
    ['"name"', `unexpected '"name"' at position 1`],
    ['(name)', "expected a field name at position 1, got '('"],
  ])('%s -> %s', (orderby, message) => {
    expect(orderError(orderby)).toContain(message)
  })

  it('limits input length', () => {
    expect(orderError(`name${' '.repeat(MAX_INPUT_LENGTH)}`)).toContain('$orderby is too long')
  })
})

describe('FieldMap configuration', () => {
  it('rejects names that clash ignoring case, a programming error rather than a 400', () => {
    const clash = { name: { column: 'a', type: 'string' }, Name: { column: 'b', type: 'string' } } as const
    expect(() => buildFilter("name eq 'x'", clash)).toThrow("FieldMap has 'Name' twice")
  })
})
