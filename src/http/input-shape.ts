import { decodeEnum, ENUM_KEYWORD, type EnumSpec } from './enums.js'

/**
 * What the input rules need to know about a schema, read once per route: declared property names
 * (matched regardless of letter case), free-form maps (keys kept as sent), date-times, numbers
 * and enums. Unions and compositions (anyOf, oneOf, allOf) contribute all of their branches.
 */
export interface Shape {
  /** Declared properties by lower-cased name. */
  props?: Map<string, { name: string; shape: Shape }>
  /** Values of a free-form map (patternProperties / additionalProperties schema). */
  values?: Shape
  items?: Shape
  dateTime?: boolean
  numeric?: 'integer' | 'number'
  enumSpec?: EnumSpec
}

type SchemaNode = Record<string, unknown>
export type ResolveRef = (ref: string) => SchemaNode | undefined

const isNode = (value: unknown): value is SchemaNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

export function shapeOf(schema: unknown, resolveRef: ResolveRef, seen = new Map<object, Shape>()): Shape {
  if (!isNode(schema)) return {}
  const known = seen.get(schema)
  if (known) return known
  const shape: Shape = {}
  seen.set(schema, shape)
  const merge = (other: unknown) => mergeInto(shape, shapeOf(other, resolveRef, seen))

  if (typeof schema.$ref === 'string') merge(resolveRef(schema.$ref))
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  if (!types.includes('string')) {
    if (types.includes('integer')) shape.numeric = 'integer'
    else if (types.includes('number')) shape.numeric = 'number'
  }
  if (schema.format === 'date-time') shape.dateTime = true
  const spec = schema[ENUM_KEYWORD] as EnumSpec | undefined
  if (spec && Array.isArray(spec.names)) shape.enumSpec = spec
  if (isNode(schema.properties)) {
    shape.props ??= new Map()
    for (const [name, child] of Object.entries(schema.properties)) {
      addProp(shape.props, name, shapeOf(child, resolveRef, seen))
    }
  }
  if (isNode(schema.patternProperties)) {
    for (const child of Object.values(schema.patternProperties)) {
      shape.values = mergeInto(shape.values ?? {}, shapeOf(child, resolveRef, seen))
    }
  }
  if (isNode(schema.additionalProperties)) {
    shape.values = mergeInto(shape.values ?? {}, shapeOf(schema.additionalProperties, resolveRef, seen))
  }
  if (isNode(schema.items)) shape.items = shapeOf(schema.items, resolveRef, seen)
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[keyword]
    if (Array.isArray(branches)) for (const branch of branches) merge(branch)
  }
  return shape
}

function addProp(props: NonNullable<Shape['props']>, name: string, shape: Shape) {
  const lower = name.toLowerCase()
  const existing = props.get(lower)
  if (!existing) props.set(lower, { name, shape })
  else if (existing.shape !== shape) existing.shape = mergeInto({ ...existing.shape }, shape)
}

function mergeInto(target: Shape, source: Shape): Shape {
  if (target === source) return target
  if (source.props) {
    target.props ??= new Map()
    for (const { name, shape } of source.props.values()) addProp(target.props, name, shape)
  }
  if (source.values)
    target.values = target.values ? mergeInto({ ...target.values }, source.values) : source.values
  if (source.items) target.items = target.items ? mergeInto({ ...target.items }, source.items) : source.items
  if (source.dateTime) target.dateTime = true
  if (source.numeric && target.numeric !== 'number') target.numeric = source.numeric
  if (source.enumSpec) target.enumSpec ??= source.enumSpec
  return target
}

export interface InputIssue {
  instancePath: string
  keyword: string
  message: string
  params: Record<string, unknown>
}

/** An ISO 8601 date-time without an offset, as a .NET DateTime of unspecified kind writes it. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/
/** Numbers in query strings, paths and headers: decimal digits only (no hex, exponent, sign or spaces). */
const TEXT_NUMBER = {
  integer: /^-?\d+$/,
  number: /^-?\d+(\.\d+)?$/,
} as const

const pointerSegment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * Normalises `value` in place against `shape` and returns it (a date-time string may be replaced):
 * declared property names take their declared case, offset-less date-times get `Z`, enum numbers
 * become names. In text parts (query, path, headers) numbers must be decimal digits. Problems are
 * pushed to `issues` in Ajv's error form so they are reported like any other invalid field.
 */
export function normalise(
  value: unknown,
  shape: Shape,
  pointer: string,
  issues: InputIssue[],
  text: boolean,
): unknown {
  if (typeof value === 'string') {
    if (shape.dateTime && LOCAL_DATE_TIME.test(value)) return `${value}Z`
    const numeric = shape.numeric ?? (text ? shape.items?.numeric : undefined)
    if (text && numeric && !TEXT_NUMBER[numeric].test(value)) {
      issues.push({
        instancePath: pointer,
        keyword: 'type',
        message: numeric === 'integer' ? 'must be an integer (decimal digits)' : 'must be a decimal number',
        params: {},
      })
    }
    return value
  }
  if (typeof value === 'number' && shape.enumSpec) return decodeEnum(shape.enumSpec, value) ?? String(value)
  if (Array.isArray(value)) {
    if (shape.items) {
      for (let i = 0; i < value.length; i++) {
        value[i] = normalise(value[i], shape.items, `${pointer}/${i}`, issues, text)
      }
    }
    return value
  }
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  const props = shape.props
  if (props) {
    // The name as sent of a property renamed to its declared name, to name both in a duplicate.
    const sentAs = new Map<string, string>()
    for (const key of Object.keys(record)) {
      const declared = props.get(key.toLowerCase())
      if (!declared || declared.name === key) continue
      if (Object.hasOwn(record, declared.name)) {
        issues.push({
          instancePath: `${pointer}/${pointerSegment(declared.name)}`,
          keyword: 'duplicate',
          message: `is given more than once, as ${sentAs.get(declared.name) ?? declared.name} and ${key} (names match regardless of letter case)`,
          params: {},
        })
        continue
      }
      sentAs.set(declared.name, key)
      record[declared.name] = record[key]
      delete record[key]
    }
    for (const { name, shape: child } of props.values()) {
      if (Object.hasOwn(record, name)) {
        record[name] = normalise(record[name], child, `${pointer}/${pointerSegment(name)}`, issues, text)
      }
    }
  }
  if (shape.values) {
    for (const key of Object.keys(record)) {
      if (props?.get(key.toLowerCase())) continue
      record[key] = normalise(record[key], shape.values, `${pointer}/${pointerSegment(key)}`, issues, text)
    }
  }
  return value
}
