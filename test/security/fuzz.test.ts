import { randomUUID } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { createApiKey } from '../fixtures.js'
import {
  type Credential,
  coreAs,
  credentialHeaders,
  ownerSession,
  signIn,
  startTestContext,
} from '../harness.js'
import {
  bodyCases,
  type FuzzCase,
  headerCases,
  type Operation,
  queryCases,
  sample,
  solid,
} from './fuzz-cases.js'
import { type Victim, victimOrganisation } from './fuzz-victim.js'

// Walks both published OpenAPI documents and sends every operation malformed bodies, query strings
// and headers, and another organisation's ids in its path, with both credential kinds. Every answer
// must be a 4xx in the API's error shape (or, for input that may be valid, anything but a fault),
// and no answer may carry the other organisation's data. Operations are read from the documents
// at run time, so a route added later is covered without touching this file.

type Api = 'core' | 'global'
type Document = { paths: Record<string, Record<string, Operation>> }

const ctx = await startTestContext()
afterAll(() => ctx.close())
const documents = {} as Record<Api, Document>
for (const api of ['core', 'global'] as const)
  documents[api] = withInlinedRefs((await ctx[api].inject({ url: '/openapi.json' })).json())

/**
 * The documents reference their records under components.schemas; the cases are generated from the
 * schemas themselves, so every `$ref` is replaced by what it names (a record met again inside itself,
 * as in a recursive tree, is left as a reference).
 */
function withInlinedRefs(document: { components?: { schemas?: Record<string, unknown> } }): Document {
  const named = document.components?.schemas ?? {}
  const inline = (node: unknown, within: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, within))
    if (node === null || typeof node !== 'object') return node
    const ref = (node as { $ref?: unknown }).$ref
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length)
      if (within.has(name) || !(name in named)) return node
      return inline(named[name], new Set([...within, name]))
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value, within)]))
  }
  return inline(document, new Set()) as Document
}

/** An event stream never ends under inject; its error paths are tested in its own suite. */
const isEventStream = (operation: unknown) =>
  JSON.stringify((operation as { responses?: unknown }).responses ?? {}).includes('"text/event-stream"')

const operations = (api: Api) =>
  Object.entries(documents[api].paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => !isEventStream(operation))
      .map(([method, operation]) => ({
        api,
        path,
        method: method.toUpperCase(),
        operation,
      })),
  )

let owner: Awaited<ReturnType<typeof ownerSession>> | undefined
let victim: Victim | undefined
/**
 * The caller (organisation A): its owner's token and an unrestricted API key. Asked fresh (the Global
 * API, whose operations end sessions), the owner signs in again: a new session, the same organisation.
 */
async function callers(fresh: boolean): Promise<{ kind: string; credential: Credential }[]> {
  if (!owner) owner = await ownerSession(ctx)
  else if (fresh) {
    const signedIn = await signIn(ctx, owner.org)
    const credential = { accessToken: signedIn.accessToken, businessId: owner.org.businessId }
    owner = { ...owner, signedIn, credential, core: coreAs(ctx, credential) }
  }
  victim ??= await victimOrganisation(ctx)
  const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, { label: 'fuzz' })
  return [
    { kind: 'bearer', credential: owner.credential },
    { kind: 'api key', credential: { apiKey } },
  ]
}

const headersFor = (api: Api, credential: Credential): Record<string, string> =>
  api === 'core' || 'apiKey' in credential
    ? credentialHeaders(credential)
    : { authorization: `Bearer ${credential.accessToken}` }

/** A valid-looking path: uuids are random, enums their first name. */
function pathWith(path: string, operation: Operation, values: Record<string, string> = {}) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (values[name]) return values[name] as string
    const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name)
    return encodeURIComponent(String(sample(parameter?.schema ?? { type: 'string', format: 'uuid' })))
  })
}

const tally = new Map<number, number>()

/** What is wrong with one answer, or undefined. */
function fault(
  api: Api,
  fuzz: FuzzCase,
  response: LightMyRequestResponse,
  secrets: string[],
): string | undefined {
  const status = response.statusCode
  tally.set(status, (tally.get(status) ?? 0) + 1)
  const leaked = secrets.find((secret) => response.body.includes(secret))
  if (leaked) return `${status} carries the other organisation's data (${leaked})`
  if (status >= 500) return `${status} ${response.body.slice(0, 200)}`
  if (status < 400) return fuzz.expect === 'refused' ? `${status}: accepted` : undefined
  const type = String(response.headers['content-type'] ?? '')
  const body = response.json() as Record<string, unknown>
  const shaped =
    api === 'core'
      ? type.startsWith('application/json') &&
        typeof body.message === 'string' &&
        typeof body.code === 'string' &&
        Array.isArray(body.reasons)
      : type.startsWith('application/problem+json') &&
        typeof body.type === 'string' &&
        typeof body.title === 'string' &&
        body.status === status
  return shaped ? undefined : `${status} not in the API's error shape: ${type} ${response.body.slice(0, 200)}`
}

async function send(api: Api, method: string, url: string, fuzz: FuzzCase, headers: Record<string, string>) {
  return ctx[api].inject({
    method: method as 'GET',
    url: fuzz.rawQuery ? `${url}?${fuzz.rawQuery}` : url,
    query: fuzz.query,
    headers: {
      ...headers,
      ...(fuzz.body !== undefined ? { 'content-type': fuzz.contentType ?? 'application/json' } : {}),
      ...fuzz.headers,
    },
    ...(fuzz.body !== undefined ? { payload: fuzz.body } : {}),
  })
}

describe.each(['core', 'global'] as const)('%s API under malformed input', (api) => {
  it.each(operations(api).map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (_label, op) => {
    const { path, method, operation } = op
    const secured = (operation.security?.length ?? 0) > 0
    const who = await callers(api === 'global')
    if (!victim) throw new Error('no victim organisation')
    const faults: string[] = []
    const check = async (label: string, fuzz: FuzzCase, url: string, headers: Record<string, string>) => {
      const problem = fault(api, fuzz, await send(api, method, url, fuzz, headers), victim?.secrets ?? [])
      if (problem) faults.push(`${label} ${fuzz.label}: ${problem}`)
    }
    const url = pathWith(path, operation)
    for (const { kind, credential } of who) {
      const headers = headersFor(api, credential)
      for (const fuzz of [...bodyCases(operation), ...queryCases(operation)])
        await check(kind, fuzz, url, headers)
      // Another organisation's ids: each path parameter in turn, then all of them.
      const pathNames = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)
      for (const names of pathNames.length > 1 ? [...pathNames.map((n) => [n]), pathNames] : [pathNames]) {
        if (names.length === 0) continue
        const theirs = Object.fromEntries(names.map((n) => [n, victim?.idFor(n) ?? randomUUID()]))
        const body = operation.requestBody?.content['application/json']
        const fuzz: FuzzCase = {
          label: `their ${names.join(' and ')}`,
          expect: secured ? 'refused' : 'survives',
          ...(body ? { body: JSON.stringify(sample(body.schema ?? {})) } : {}),
        }
        await check(kind, fuzz, pathWith(path, operation, theirs), headers)
      }
      for (const bad of ['not-a-uuid', '%00', 'x'.repeat(300)]) {
        if (!operation.parameters?.some((p) => p.in === 'path' && solid(p.schema ?? {}).format === 'uuid'))
          break
        const values = Object.fromEntries(
          (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, bad]),
        )
        await check(
          kind,
          { label: `path ${bad.slice(0, 12)}`, expect: 'refused' },
          pathWith(path, operation, values),
          headers,
        )
      }
    }
    const bearer = headersFor(api, who[0]?.credential as Credential)
    for (const fuzz of headerCases()) {
      const headers = fuzz.headers?.['x-dispatch-api-key'] ? {} : bearer
      await check(
        'header',
        { ...fuzz, expect: secured && api === 'core' ? 'refused' : 'survives' },
        url,
        headers,
      )
    }
    expect(faults, `${faults.length} fault(s)`).toEqual([])
  })
})

describe('after the walk', () => {
  it('left the other organisation whole and no prototype polluted', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    // The walk reached validation and the other organisation's records, not just the front door.
    expect(tally.get(400) ?? 0, JSON.stringify([...tally])).toBeGreaterThan(1000)
    expect(tally.get(404) ?? 0, JSON.stringify([...tally])).toBeGreaterThan(40)
    if (victim) await victim.expectIntact()
  })
})
