import { STATUS_CODES } from 'node:http'
import { PERMISSION_MODULES } from '../security/permissions.js'
import type { DeclaredRoute } from './auth-hook.js'
import { ENUM_KEYWORD, type EnumSpec } from './enums.js'
import { idempotencyForOpenApi } from './idempotency/idempotency.openapi.js'
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

/**
 * The published document: enums as plain lists, access stated, parameters with a default
 * optional, records under `components.schemas`, every success answer described, the shared error
 * answers under `components.responses`, and one path per template.
 */
export function publishedOpenApi<T>(
  document: T,
  accessTable: readonly DeclaredRoute[] = [],
  schemaNames: OperationSchemaNames = {},
): T {
  const published = idempotencyForOpenApi(
    accessForOpenApi(enumsForOpenApi(document), accessTable),
    accessTable,
  )
  defaultedParametersOptional(published)
  componentsForOpenApi(published, schemaNames)
  describeSuccessResponses(published)
  sharedErrorResponses(published)
  oneTemplatePerPath(published)
  return published
}

/** Every operation of the document, with its path and method. */
function operationsOf(document: unknown): { path: string; method: string; operation: Schema }[] {
  const paths = (document as Schema).paths
  if (!isObject(paths)) return []
  return Object.entries(paths).flatMap(([path, methods]) =>
    isObject(methods)
      ? Object.entries(methods).flatMap(([method, operation]) =>
          isObject(operation) && typeof operation.operationId === 'string'
            ? [{ path, method, operation }]
            : [],
        )
      : [],
  )
}

/** The header a bearer-token request names its business in (the auth hook reads the same). */
const BUSINESS_HEADER = 'x-business-id'

/** Names of the security schemes that stand for the business header. */
function businessSchemes(document: Schema): Set<string> {
  const schemes = isObject(document.components) ? document.components.securitySchemes : undefined
  if (!isObject(schemes)) return new Set()
  return new Set(
    Object.entries(schemes).flatMap(([name, scheme]) =>
      isObject(scheme) &&
      scheme.in === 'header' &&
      typeof scheme.name === 'string' &&
      scheme.name.toLowerCase() === BUSINESS_HEADER
        ? [name]
        : [],
    ),
  )
}

/**
 * Each operation states what it needs: `x-permission` ({ module, code, action }) for a module
 * permission, and the same in words at the top of its description, so the reference shows it.
 * An operation that acts in no business (GET /api/me, say) does not ask for the business header,
 * whatever security its route shares with the others.
 */
function accessForOpenApi<T>(document: T, accessTable: readonly DeclaredRoute[]): T {
  const paths = (document as Schema).paths
  if (!isObject(paths)) return document
  const business = businessSchemes(document as Schema)
  for (const route of accessTable) {
    const operation = (paths[route.url.replace(/:(\w+)/g, '{$1}')] as Schema | undefined)?.[
      route.method.toLowerCase()
    ]
    if (!isObject(operation)) continue
    let words: string
    if ('public' in route.access) words = 'Access: public.'
    else if ('signedIn' in route.access) {
      const who = route.access.personOnly ? 'person' : route.access.business ? 'member' : 'caller'
      words = `Access: any signed-in ${who}${route.access.business ? ', in a business' : ''}.`
    } else {
      const [module, action] = route.access.permission
      const code = `M${PERMISSION_MODULES.indexOf(module) + 1}`
      operation['x-permission'] = { module, code, action }
      words = `Permission: ${module} ${action} (${code}).`
    }
    if (!('public' in route.access) && route.access.personOnly)
      words += ` Not for API keys (403 api_key_not_allowed): ${route.access.personOnly}`
    operation.description =
      typeof operation.description === 'string' ? `${words} ${operation.description}` : words
    const needsBusiness =
      'permission' in route.access || ('signedIn' in route.access && route.access.business)
    if (!needsBusiness && Array.isArray(operation.security) && business.size > 0) {
      operation.security = withoutSchemes(operation.security, business)
    }
  }
  return document
}

/** Security requirements without the given schemes; a requirement left with nothing goes too. */
function withoutSchemes(requirements: unknown[], drop: ReadonlySet<string>): unknown[] {
  const kept: Schema[] = []
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue
    const entries = Object.entries(requirement)
    const rest = Object.fromEntries(entries.filter(([name]) => !drop.has(name)))
    if (entries.length > 0 && Object.keys(rest).length === 0) continue
    if (!kept.some((other) => JSON.stringify(other) === JSON.stringify(rest))) kept.push(rest)
  }
  return kept
}

/**
 * A query, header or cookie parameter with a default is optional: the server fills the default
 * in. TypeBox lists a property with a default among the required ones unless it is marked
 * optional (and the handler then sees it always set, as validation applies the default), and
 * @fastify/swagger copies that list; so it is corrected here, once, for every route.
 */
function defaultedParametersOptional(document: unknown) {
  for (const { operation } of operationsOf(document)) {
    if (!Array.isArray(operation.parameters)) continue
    for (const parameter of operation.parameters) {
      if (!isObject(parameter) || parameter.in === 'path' || parameter.required !== true) continue
      if (isObject(parameter.schema) && parameter.schema.default !== undefined) parameter.required = false
    }
  }
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
  // A list's CSV export is text, not a record to name (csv-export.ts).
  return Object.entries(holder.content).flatMap(([mediaType, media]) =>
    mediaType !== 'text/csv' && isObject(media) && isObject(media.schema) ? [media.schema] : [],
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
  if (isObject(document.webhooks)) nameOperationSchemas(document.webhooks, schemaNames)
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
  register(document.webhooks)
  document.paths = replace(document.paths)
  if (isObject(document.webhooks)) document.webhooks = replace(document.webhooks)
  return document as T
}

// ---- success descriptions, shared error answers, one path per template ----------------------

/** What a success answer holds, in words, from the record it references. */
function shapeOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined
  const named = (node: unknown) =>
    isObject(node) && typeof node.$ref === 'string' ? node.$ref.split('/').pop() : undefined
  const listOf = (name: string) => (name.endsWith('List') ? `list of ${name.slice(0, -4)}` : name)
  const name = named(schema)
  if (name?.endsWith('PagedResult'))
    return `a PagedResult envelope, data: one page of ${name.slice(0, -'PagedResult'.length)} records`
  if (name?.endsWith('SingleResult'))
    return `a SingleResult envelope, data: ${listOf(name.slice(0, -'SingleResult'.length))}`
  if (name) return listOf(name)
  const item = schema.type === 'array' ? named(schema.items) : undefined
  return item ? `list of ${item}` : undefined
}

/**
 * @fastify/swagger describes a success answer whose schema has no description as "Default
 * Response"; each gets its operation's summary and what it holds instead, so no route has to
 * write one (a route that does keeps its own).
 */
function describeSuccessResponses(document: unknown) {
  for (const { operation } of operationsOf(document)) {
    if (!isObject(operation.responses)) continue
    const summary = (
      typeof operation.summary === 'string' ? operation.summary : String(operation.operationId)
    )
      .trim()
      .replace(/\.$/, '')
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2') || !isObject(response)) continue
      if (response.description !== undefined && response.description !== 'Default Response') continue
      const shape = contentSchemas(response).map(shapeOf).find(Boolean)
      response.description = shape ? `${summary}: ${shape}.` : `${summary}.`
    }
  }
}

/** `Bad Request` as `BadRequest`: a component name from the status text. */
const statusName = (status: string) =>
  (STATUS_CODES[Number(status)] ?? `Status${status}`).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string) =>
    c ? c.toUpperCase() : '',
  )

/**
 * The error answers every operation repeats (400, 401, 403, 500...) are published once under
 * `components.responses` and referenced: the same answer 147 times made up 40% of the Core API
 * document, which every client and the /docs page has to load and parse. For each status, the
 * answer most operations give is the shared one; an operation that words it otherwise keeps its own.
 */
function sharedErrorResponses(document: unknown) {
  const byStatus = new Map<string, Map<string, number>>()
  const operations = operationsOf(document)
  for (const { operation } of operations) {
    for (const [status, response] of Object.entries(
      isObject(operation.responses) ? operation.responses : {},
    )) {
      if (status.startsWith('2') || !isObject(response) || '$ref' in response) continue
      const counts = byStatus.get(status) ?? new Map<string, number>()
      const key = JSON.stringify(response)
      counts.set(key, (counts.get(key) ?? 0) + 1)
      byStatus.set(status, counts)
    }
  }
  const shared = new Map<string, { key: string; ref: string }>()
  const root = document as Schema
  if (!isObject(root.components)) root.components = {}
  const components = root.components as Schema
  for (const [status, counts] of [...byStatus].sort(([a], [b]) => a.localeCompare(b))) {
    const [key, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0]
    if (count < 2) continue
    if (!isObject(components.responses)) components.responses = {}
    const name = statusName(status)
    ;(components.responses as Schema)[name] = JSON.parse(key)
    shared.set(status, { key, ref: `#/components/responses/${name}` })
  }
  for (const { operation } of operations) {
    if (!isObject(operation.responses)) continue
    for (const [status, response] of Object.entries(operation.responses)) {
      const common = shared.get(status)
      if (common && JSON.stringify(response) === common.key)
        operation.responses[status] = { $ref: common.ref }
    }
  }
}

const PATH_PARAMETER = /\{([^}]+)\}/g
const templateOf = (path: string) => path.replace(PATH_PARAMETER, '{}')
const parameterNames = (path: string) => [...path.matchAll(PATH_PARAMETER)].map((match) => match[1] as string)

/**
 * Paths that differ only in their parameters' names are one template, which OpenAPI allows only
 * once (`/api/v1/plans/{dispatchId}` and `/api/v1/plans/{deliveryPlanId}`: the contract names the
 * plan's id one way on some operations and the other way on others, and the router serves both
 * under one route). The operations of the later path join the first one, their path parameters
 * renamed to its names; each says in its description what the contract calls the parameter.
 */
function oneTemplatePerPath(document: unknown) {
  const paths = (document as Schema).paths
  if (!isObject(paths)) return
  const first = new Map<string, string>()
  for (const [path, item] of Object.entries(paths)) {
    const template = templateOf(path)
    const kept = first.get(template)
    if (kept === undefined) {
      first.set(template, path)
      continue
    }
    const target = paths[kept]
    if (!isObject(item) || !isObject(target)) continue
    if (Object.keys(item).some((method) => method in target)) continue // would overwrite: left as is
    const from = parameterNames(path)
    const to = parameterNames(kept)
    const renamed = new Map(from.map((name, index) => [name, to[index] as string]))
    const words = [...renamed]
      .filter(([name, into]) => name !== into)
      .map(([name, into]) => `its \`${name}\` is \`${into}\` here`)
      .join(', ')
    for (const [method, operation] of Object.entries(item)) {
      if (isObject(operation)) {
        for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
          if (isObject(parameter) && parameter.in === 'path' && typeof parameter.name === 'string')
            parameter.name = renamed.get(parameter.name) ?? parameter.name
        }
        const note = `The contract writes this path as \`${path}\`: ${words}.`
        operation.description =
          typeof operation.description === 'string' ? `${operation.description} ${note}` : note
      }
      target[method] = operation
    }
    delete paths[path]
  }
}
