import { randomUUID } from 'node:crypto'

/**
 * Malformed requests generated from an operation's published OpenAPI description: a few cases per
 * declared property and parameter, never an exhaustive product, so every operation costs tens of
 * requests. `refused` cases are invalid whatever the rest of the request holds (4xx required);
 * `survives` cases may be accepted, but must never fault.
 */

export interface JsonSchema {
  type?: string | string[]
  format?: string
  enum?: unknown[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  minimum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie'
  name: string
  schema?: JsonSchema
}

export interface Operation {
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema?: JsonSchema }> }
  security?: Record<string, unknown>[]
}

export type Expectation = 'refused' | 'survives'

export interface FuzzCase {
  label: string
  expect: Expectation
  query?: Record<string, string>
  /** Appended to the URL as written (for encodings a query object cannot express). */
  rawQuery?: string
  /** Raw request body text (sent as application/json unless `contentType` says otherwise). */
  body?: string
  contentType?: string
  headers?: Record<string, string>
}

const MEGABYTE = 'x'.repeat(1_048_576)
const DEPTH = 10_000

const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]
const nullable = (schema: JsonSchema) =>
  typesOf(schema).includes('null') ||
  schema.enum?.includes(null) ||
  [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((s) => typesOf(s).includes('null'))

/** The schema without its null branch: what a value must be when present. */
export function solid(schema: JsonSchema): JsonSchema {
  const branch = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((s) => !typesOf(s).includes('null'))
  if (branch) return solid(branch)
  if (schema.allOf?.length) return solid(Object.assign({}, ...schema.allOf.map(solid)))
  const types = typesOf(schema).filter((t) => t !== 'null')
  return { ...schema, type: types.length === 1 ? types[0] : schema.type }
}

/** A plausible value for a schema: what a well-behaved client might send. */
export function sample(schema: JsonSchema, depth = 0): unknown {
  const s = solid(schema)
  if (s.enum?.length) return s.enum.find((v) => v !== null)
  switch (s.type) {
    case 'string':
      if (s.format === 'uuid') return randomUUID()
      if (s.format === 'email') return `fuzz-${randomUUID().slice(0, 8)}@example.com`
      if (s.format === 'date-time') return new Date().toISOString()
      if (s.format === 'date') return '2026-01-31'
      return 'F'.repeat(Math.max(s.minLength ?? 1, 4))
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1)
    case 'boolean':
      return true
    case 'array':
      return (s.minItems ?? 0) > 0 && s.items && depth < 4 ? [sample(s.items, depth + 1)] : []
    case 'object':
      return Object.fromEntries(
        (s.required ?? [])
          .filter((name) => s.properties?.[name] && depth < 4)
          .map((name) => [name, sample(s.properties?.[name] as JsonSchema, depth + 1)]),
      )
    default:
      return 'F'
  }
}

/** A value of the wrong JSON type for the schema (never one that coercion could rescue). */
function wrongType(schema: JsonSchema): unknown {
  switch (solid(schema).type) {
    case 'string':
      return 12345
    case 'integer':
    case 'number':
      return '12'
    case 'boolean':
      return 'true'
    case 'array':
      return 'x'
    case 'object':
      return 'x'
    default:
      return undefined
  }
}

/** Property paths to mutate: every top-level property and one level into nested objects. */
function propertyPaths(schema: JsonSchema, limit = 16): { path: string[]; schema: JsonSchema }[] {
  const out: { path: string[]; schema: JsonSchema }[] = []
  for (const [name, property] of Object.entries(solid(schema).properties ?? {})) {
    out.push({ path: [name], schema: property })
    for (const [inner, innerSchema] of Object.entries(solid(property).properties ?? {}))
      out.push({ path: [name, inner], schema: innerSchema })
  }
  return out.slice(0, limit)
}

function withValue(base: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(base) as Record<string, unknown>
  let node = copy
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  node[path[path.length - 1] as string] = value
  return copy
}

/** Places raw JSON text at a property (for values JSON.stringify cannot write, such as 1e400). */
const RAW = '"\u0001raw\u0001"'
const withRaw = (base: unknown, path: string[], raw: string) =>
  JSON.stringify(withValue(base, path, '\u0001raw\u0001')).replace(RAW, raw)

export function bodyCases(operation: Operation): FuzzCase[] {
  const content = operation.requestBody?.content
  if (!content) return []
  const json = content['application/json']
  if (!json) {
    // A body of another kind (multipart upload): JSON is an unsupported media type there.
    return [{ label: 'JSON body where another media type is declared', expect: 'refused', body: '{}' }]
  }
  const schema = json.schema ?? {}
  const base = sample(schema)
  const cases: FuzzCase[] = [
    { label: 'malformed JSON', expect: 'refused', body: '{"a":' },
    { label: 'deep nesting', expect: 'refused', body: `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}` },
    {
      label: 'deep nesting inside a property',
      expect: 'refused',
      body: `{"${Object.keys(solid(schema).properties ?? { a: 1 })[0]}":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`,
    },
    {
      label: '__proto__ key',
      expect: 'refused',
      body: `{"__proto__":{"polluted":true},${JSON.stringify(base).slice(1)}`.replace(',}', '}'),
    },
    {
      label: 'constructor.prototype key',
      expect: 'refused',
      body: `{"constructor":{"prototype":{"polluted":true}},${JSON.stringify(base).slice(1)}`.replace(
        ',}',
        '}',
      ),
    },
  ]
  if (solid(schema).type === 'object') {
    for (const raw of ['[]', '"text"', 'null', '42'])
      cases.push({ label: `body ${raw} where an object is declared`, expect: 'refused', body: raw })
  }
  for (const { path, schema: property } of propertyPaths(schema)) {
    const at = path.join('.')
    const s = solid(property)
    const wrong = wrongType(property)
    if (wrong !== undefined)
      cases.push({
        label: `${at}: wrong type`,
        expect: 'refused',
        body: JSON.stringify(withValue(base, path, wrong)),
      })
    if (!nullable(property))
      cases.push({
        label: `${at}: null`,
        expect: 'refused',
        body: JSON.stringify(withValue(base, path, null)),
      })
    if (s.type === 'string' || s.type === 'object' || s.type === 'array') {
      const inside = (text: string) =>
        s.type === 'string' ? text : s.type === 'array' ? [text] : { key: text }
      cases.push(
        {
          label: `${at}: U+0000`,
          expect: 'refused',
          body: JSON.stringify(withValue(base, path, inside('a\u0000b'))),
        },
        {
          label: `${at}: lone surrogate`,
          expect: 'refused',
          body: JSON.stringify(withValue(base, path, inside('a\ud800b'))),
        },
      )
    }
    if (s.type === 'string')
      cases.push({
        label: `${at}: 1 MB string`,
        expect: s.maxLength !== undefined ? 'refused' : 'survives',
        body: JSON.stringify(withValue(base, path, MEGABYTE)),
      })
    if (s.type === 'integer' || s.type === 'number') {
      for (const raw of ['1e400', '-1e400', '9223372036854775808', '-2147483649', '1e-400', '0.5'])
        cases.push({ label: `${at}: ${raw}`, expect: 'survives', body: withRaw(base, path, raw) })
    }
  }
  return cases
}

const BROKEN_FILTERS = [
  'name eq',
  '((((((',
  'eq eq eq',
  'nosuchfield eq 1',
  "name eq 'x' and",
  "name eq 'open",
  '1 eq 1',
]
const BROKEN_ORDERBY = ['nosuchfield', 'name sideways', ',', 'name desc desc', '$filter']

export function queryCases(operation: Operation): FuzzCase[] {
  const cases: FuzzCase[] = []
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query') continue
    const s = solid(parameter.schema ?? {})
    const q = (label: string, value: string, expect: Expectation): FuzzCase => ({
      label: `?${parameter.name} ${label}`,
      expect,
      query: { [parameter.name]: value },
    })
    cases.push(q('U+0000', 'a\u0000b', 'refused'), q('1 MB', MEGABYTE, 'survives'), {
      // A lone surrogate cannot be percent-encoded as UTF-8; this is its CESU-8 form.
      label: `?${parameter.name} lone surrogate`,
      expect: 'survives',
      rawQuery: `${encodeURIComponent(parameter.name)}=a%ED%A0%80b`,
    })
    if (s.type === 'integer' || s.type === 'number')
      for (const value of ['abc', '1.5', '0x10', '1e3', '99999999999999999999', ' 2'])
        cases.push(q(JSON.stringify(value), value, 'refused'))
    if (s.type === 'boolean') cases.push(q('maybe', 'maybe', 'refused'))
    if (s.format === 'uuid') cases.push(q('not a uuid', 'not-a-uuid', 'refused'))
    if (s.format === 'date-time') cases.push(q('not a date', 'yesterday', 'refused'))
    if (s.enum) cases.push(q('not in the enum', 'NoSuchValue', 'refused'))
    if (parameter.name.toLowerCase() === '$filter')
      for (const filter of [...BROKEN_FILTERS, "name eq 'a\u0000b'"])
        cases.push(q(JSON.stringify(filter), filter, 'refused'))
    if (parameter.name.toLowerCase() === '$orderby')
      for (const order of BROKEN_ORDERBY) cases.push(q(JSON.stringify(order), order, 'refused'))
  }
  return cases
}

/** Malformed credentials headers: U+0000 and a lone surrogate, whatever the route needs. */
export function headerCases(): FuzzCase[] {
  return [
    {
      label: 'U+0000 in X-Business-Id',
      expect: 'refused',
      headers: { 'x-business-id': `${randomUUID()}\u0000` },
    },
    { label: 'lone surrogate in X-Business-Id', expect: 'refused', headers: { 'x-business-id': 'a\ud800b' } },
    {
      label: 'U+0000 in x-dispatch-api-key',
      expect: 'refused',
      headers: { 'x-dispatch-api-key': 'key\u0000' },
    },
  ]
}
