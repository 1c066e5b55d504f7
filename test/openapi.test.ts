import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestContext, type TestContext } from './harness.js'
import { SPEC_PERMISSIONS } from './security/spec-permissions.js'

// The published documents are what client generators consume: every operation must be complete.

interface Operation {
  operationId?: string
  summary?: string
  tags?: string[]
  security?: unknown[]
  parameters?: unknown[]
  requestBody?: unknown
  responses: Record<string, unknown>
}
type Document = {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components: { schemas?: Record<string, unknown> }
}

let ctx: TestContext
const documents: Record<'core' | 'global', Document> = {} as Record<'core' | 'global', Document>
beforeAll(async () => {
  ctx = await startTestContext()
  for (const api of ['core', 'global'] as const) {
    const response = await ctx[api].inject({ url: '/openapi.json' })
    expect(response.statusCode).toBe(200)
    documents[api] = response.json()
  }
})
afterAll(() => ctx.close())

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  )

describe.each(['core', 'global'] as const)('%s API OpenAPI document', (api) => {
  it('is OpenAPI 3.1 and documents every operation completely', () => {
    const document = documents[api]
    expect(document.openapi).toBe('3.1.0')
    const ids = new Set<string>()
    for (const { path, method, operation } of operations(document)) {
      const label = `${method} ${path}`
      expect(operation.operationId, label).toMatch(/^[A-Z][A-Za-z0-9]+$/)
      expect(ids.has(operation.operationId ?? ''), `${label} duplicates ${operation.operationId}`).toBe(false)
      ids.add(operation.operationId ?? '')
      expect(operation.summary, label).toBeTruthy()
      expect(operation.tags?.length, label).toBeGreaterThan(0)
      expect(Array.isArray(operation.security), `${label} security`).toBe(true)
      expect(Object.keys(operation.responses), label).toEqual(expect.arrayContaining(['200', '500']))
      if ((operation.security?.length ?? 0) > 0)
        expect(Object.keys(operation.responses), label).toContain('401')
      if (operation.requestBody || (operation.parameters?.length ?? 0) > 0) {
        expect(Object.keys(operation.responses), `${label} documents 400`).toContain('400')
      }
    }
    expect(ids.size).toBeGreaterThan(api === 'core' ? 40 : 15)
  })
})

/** Contract operations not served yet (each one listed here is a known gap, not a test to weaken). */
const NOT_YET_SERVED: string[] = []

describe('Core API operation names', () => {
  it('use the spec operationId for every spec operation that exists', () => {
    const byRoute = new Map(
      operations(documents.core).map((o) => [
        `${o.method} ${o.path.toLowerCase().replace(/\{\w+\}/g, '{}')}`,
        o.operation.operationId,
      ]),
    )
    let matched = 0
    for (const row of SPEC_PERMISSIONS) {
      const id = byRoute.get(`${row.method} ${row.path.toLowerCase().replace(/\{\w+\}/g, '{}')}`)
      if (!id || !/^[A-Z]\w+$/.test(row.operationId)) continue
      matched++
      expect(id, `${row.method} ${row.path}`).toBe(row.operationId)
    }
    expect(matched).toBeGreaterThan(20)
  })

  it('serve every operation of the contract, found by operationId', () => {
    const served = new Set(operations(documents.core).map((o) => o.operation.operationId))
    // The spec names a few operations in words ("Get user notifications"): their id is those words in PascalCase.
    const idOf = (name: string) => name.replace(/(^|\s+)(\w)/g, (_m, _s, c: string) => c.toUpperCase())
    const missing = SPEC_PERMISSIONS.map((row) => idOf(row.operationId)).filter((id) => !served.has(id))
    expect(missing).toEqual(NOT_YET_SERVED)
  })
})

describe.each([
  [
    'core',
    ['CustomerResponse', 'CustomerResponseSingleResult', 'CustomerResponsePagedResult', 'ContactResponse'],
    ['BusinessResponse', 'CreateCustomerRequest', 'CreateContactCommand', 'AddressResponse', 'CoreError'],
  ],
  [
    'global',
    ['AccessTokenResponse', 'AccessTokenResponsePagedResult', 'LoginResponse', 'SessionResponse'],
    ['AuthenticateRequest', 'RegisterOrganizationRequest', 'ProblemDetails', 'MessageEntry'],
  ],
] as const)('%s API records', (api, ...expected) => {
  it('are published under components.schemas with the contract names, once each', () => {
    const names = Object.keys(documents[api].components.schemas ?? {})
    expect(names).toEqual(expect.arrayContaining(expected.flat()))
    // A second structure under one name would be published as Name2: names must stay unambiguous.
    expect(names.filter((name) => /\d$/.test(name))).toEqual([])
  })

  it('are referenced from every operation: JSON bodies and success answers are never anonymous', () => {
    const schemaRef = (holder: unknown) =>
      Object.entries(
        (holder as { content?: Record<string, { schema: Record<string, unknown> }> })?.content ?? {},
      )
        // JSON only: a file download or an event stream has no record to name.
        .filter(([mediaType]) => mediaType.includes('json'))
        .map(([, media]) => media.schema)
        .filter((schema) => schema.format !== 'binary')
    for (const { path, method, operation } of operations(documents[api])) {
      const schemas = [
        ...schemaRef(operation.requestBody),
        ...Object.entries(operation.responses).flatMap(([, response]) => schemaRef(response)),
      ]
      for (const schema of schemas) {
        const named =
          typeof schema.$ref === 'string' ||
          (schema.type === 'array' && typeof (schema.items as { $ref?: unknown }).$ref === 'string') ||
          (schema.type === 'object' && !schema.properties) // a free-form dictionary
        expect(named, `${method} ${path}: ${JSON.stringify(schema).slice(0, 120)}`).toBe(true)
      }
    }
  })
})

describe('operation access', () => {
  it('is stated on every operation: x-permission with the module code, and in words in the description', () => {
    const list = documents.core.paths['/api/v1/Customers']?.get as Operation & {
      description?: string
      'x-permission'?: unknown
    }
    expect(list['x-permission']).toEqual({ module: 'Customers', code: 'M3', action: 'View' })
    expect(list.description).toMatch(/^Permission: Customers View \(M3\)\. /)
    for (const api of ['core', 'global'] as const) {
      for (const { path, method, operation } of operations(documents[api])) {
        if (path.startsWith('/health/')) continue // probes, outside the API surface
        const description = (operation as { description?: string }).description ?? ''
        expect(description, `${method} ${path}`).toMatch(
          /^(Permission: \w+ (View|Modify|Delete) \(M\d+\)|Access: )/,
        )
      }
    }
  })
})
