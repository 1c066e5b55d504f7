import { PERMISSION_MODULES } from '../security/permissions.js'
import type { DeclaredRoute } from './auth-hook.js'
import { ENUM_KEYWORD, type EnumSpec } from './enums.js'
import { HEALTH_SCHEMA_NAMES, type OperationSchemaNames } from './openapi-names.js'

type Schema = Record<string, unknown>
const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Our enum schemas validate through a custom keyword (so input may be any case or a number);
 * in the published document they appear as ordinary `enum` lists of the canonical names.
 */
export function enumsForOpenApi<T>(document: T): T {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    if (node === null || typeof node !== 'object') return
    const record = node as Record<string, unknown>
    const spec = record[ENUM_KEYWORD] as EnumSpec | undefined
    if (spec && Array.isArray(spec.names)) {
      // A nullable enum (type [string, null]) lists null too, or JSON Schema would refuse it.
      const nullable = Array.isArray(record.type) && record.type.includes('null')
      record.enum = nullable ? [...spec.names, null] : [...spec.names]
      delete record[ENUM_KEYWORD]
    }
    for (const value of Object.values(record)) visit(value)
  }
  const copy = structuredClone(document)
  visit(copy)
  return copy
}

/** The published document: enums as plain lists, access stated, records under `components.schemas`. */
export function publishedOpenApi<T>(
  document: T,
  accessTable: readonly DeclaredRoute[] = [],
  schemaNames: OperationSchemaNames = {},
): T {
  return componentsForOpenApi(accessForOpenApi(enumsForOpenApi(document), accessTable), schemaNames)
}

/**
 * Each operation states what it needs: `x-permission` ({ module, code, action }) for a module
 * permission, and the same in words at the top of its description, so the reference shows it.
 */
function accessForOpenApi<T>(document: T, accessTable: readonly DeclaredRoute[]): T {
  const paths = (document as Schema).paths
  if (!isObject(paths)) return document
  for (const route of accessTable) {
    const operation = (paths[route.url.replace(/:(\w+)/g, '{$1}')] as Schema | undefined)?.[
      route.method.toLowerCase()
    ]
    if (!isObject(operation)) continue
    let words: string
    if ('public' in route.access) words = 'Access: public.'
    else if ('signedIn' in route.access)
      words = route.access.business
        ? 'Access: any signed-in member, in a business.'
        : 'Access: any signed-in caller.'
    else {
      const [module, action] = route.access.permission
      const code = `M${PERMISSION_MODULES.indexOf(module) + 1}`
      operation['x-permission'] = { module, code, action }
      words = `Permission: ${module} ${action} (${code}).`
    }
    operation.description =
      typeof operation.description === 'string' ? `${words} ${operation.description}` : words
  }
  return document
}

// ---- records under components.schemas ------------------------------------------------------

const isRecord = (node: Schema) =>
  node.type === 'object' && isObject(node.properties) && Object.keys(node.properties).length > 0
const isEnvelope = (node: unknown): node is Schema & { properties: Schema } =>
  isObject(node) &&
  isObject(node.properties) &&
  'data' in node.properties &&
  'statusCode' in node.properties &&
  'messages' in node.properties
const PRIMITIVE_NAMES: Record<string, string> = {
  boolean: 'Boolean',
  integer: 'Integer',
  number: 'Number',
  string: 'String',
}

/** `{ type: [T, 'null'], ... }` as `{ type: T, ... }`; undefined for anything else. */
function nonNullBase(node: Schema): Schema | undefined {
  if (!Array.isArray(node.type) || node.type.length !== 2 || !node.type.includes('null')) return undefined
  return { ...node, type: node.type.find((t) => t !== 'null') }
}

/** A schema's name: its own `title` when it has one, otherwise `name` is given to it. */
function nameIt(node: unknown, name: string): string | undefined {
  if (!isObject(node)) return undefined
  if (node.type === 'array') {
    const item = isObject(node.items) ? nameIt(node.items, name) : undefined
    return item && `${item}List`
  }
  if (typeof node.type === 'string' && PRIMITIVE_NAMES[node.type]) return PRIMITIVE_NAMES[node.type]
  if (!isRecord(node)) return undefined
  if (typeof node.title !== 'string') node.title = name
  return node.title as string
}

function contentSchemas(holder: unknown): Schema[] {
  if (!isObject(holder) || !isObject(holder.content)) return []
  return Object.values(holder.content).flatMap((media) =>
    isObject(media) && isObject(media.schema) ? [media.schema] : [],
  )
}

/** Step 1: a title on every request body, success record, envelope, message entry and error reason. */
function nameOperationSchemas(paths: Schema, schemaNames: OperationSchemaNames) {
  for (const methods of Object.values(paths)) {
    if (!isObject(methods)) continue
    for (const operation of Object.values(methods)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue
      const id = operation.operationId
      const names = schemaNames[id] ?? HEALTH_SCHEMA_NAMES[id] ?? {}
      for (const body of contentSchemas(operation.requestBody)) nameIt(body, names.body ?? `${id}Request`)
      for (const [status, response] of Object.entries(
        isObject(operation.responses) ? operation.responses : {},
      )) {
        for (const schema of contentSchemas(response)) {
          if (!status.startsWith('2')) {
            const reasons = isObject(schema.properties)
              ? (schema.properties.reasons ?? schema.properties.errors)
              : undefined
            if (isObject(reasons)) nameIt(reasons.items, 'ErrorReason')
            continue
          }
          if (!isEnvelope(schema)) {
            nameIt(schema, names.data ?? `${id}Response`)
            continue
          }
          const paged = 'totalCount' in schema.properties
          const data = schema.properties.data
          const record = paged && isObject(data) ? data.items : data
          const recordName = nameIt(record, names.data ?? `${id}Response`) ?? `${id}Response`
          const messages = schema.properties.messages
          if (isObject(messages)) nameIt(messages.items, 'MessageEntry')
          nameIt(schema, `${recordName}${paged ? 'PagedResult' : 'SingleResult'}`)
        }
      }
    }
  }
}

/** What makes two schemas the same record: everything but the annotations at the top. */
function structureKey(node: Schema): string {
  const canon = (value: unknown, isPropertyMap: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => canon(item, false))
    if (!isObject(value)) return value
    const out: Schema = {}
    for (const [key, child] of Object.entries(value)) {
      if (!isPropertyMap && key === 'title') continue
      out[key] = canon(child, !isPropertyMap && (key === 'properties' || key === 'patternProperties'))
    }
    return out
  }
  const { description: _d, examples: _e, ...rest } = node
  return JSON.stringify(canon(rest, false))
}

/**
 * Step 2: every titled record goes to `components.schemas` under its title and is replaced by a
 * `$ref`; an untitled record (or a nullable one) with the same structure as a named record is
 * replaced by the same `$ref`. Two different structures under one title keep both, the later one
 * with a number (`Name2`), so nothing is lost; the document test keeps that from happening.
 */
export function componentsForOpenApi<T>(input: T, schemaNames: OperationSchemaNames = {}): T {
  const document = input as Schema
  if (!isObject(document.paths)) return input
  nameOperationSchemas(document.paths, schemaNames)
  if (!isObject(document.components)) document.components = {}
  const components = document.components as Schema
  if (!isObject(components.schemas)) components.schemas = {}
  const schemas = components.schemas as Schema
  const nameByStructure = new Map<string, string>()
  const structureByName = new Map<string, string>()

  const nameOf = (node: Schema): string | undefined => {
    if (!isRecord(node)) return undefined
    const key = structureKey(node)
    if (typeof node.title !== 'string') return nameByStructure.get(key)
    for (let n = 1; ; n++) {
      const name = n === 1 ? node.title : `${node.title}${n}`
      const known = structureByName.get(name)
      if (known === undefined) {
        structureByName.set(name, key)
        if (!nameByStructure.has(key)) nameByStructure.set(key, name)
        return name
      }
      if (known === key) return name
    }
  }
  const reference = (name: string, node: Schema): Schema => {
    if (!(name in schemas)) {
      schemas[name] = {} // placeholder: a record that contains itself stops here
      const { description: _d, ...body } = node
      schemas[name] = { ...(replaceChildren(body) as Schema), title: name }
    }
    return {
      $ref: `#/components/schemas/${name}`,
      ...(typeof node.description === 'string' ? { description: node.description } : {}),
    }
  }
  const replace = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(replace)
    if (!isObject(node)) return node
    const name = nameOf(node)
    if (name) return reference(name, node)
    const base = nonNullBase(node)
    if (base) {
      const baseName = nameOf(base)
      if (baseName) {
        const { $ref } = reference(baseName, base)
        return {
          anyOf: [{ $ref }, { type: 'null' }],
          ...(typeof node.description === 'string' ? { description: node.description } : {}),
        }
      }
    }
    return replaceChildren(node)
  }
  const replaceChildren = (node: Schema): Schema => {
    const out: Schema = {}
    for (const [key, child] of Object.entries(node)) {
      if ((key === 'properties' || key === 'patternProperties') && isObject(child)) {
        out[key] = Object.fromEntries(Object.entries(child).map(([prop, schema]) => [prop, replace(schema)]))
      } else out[key] = replace(child)
    }
    return out
  }

  // Register every titled record first, so an untitled copy anywhere finds its name.
  const register = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) register(item)
      return
    }
    if (!isObject(node)) return
    if (typeof node.title === 'string') nameOf(nonNullBase(node) ?? node)
    for (const child of Object.values(node)) register(child)
  }
  register(document.paths)
  document.paths = replace(document.paths)
  return document as T
}
