import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { addMember, createApiKey, insertCustomer, schemaOf } from '../../../../test/fixtures.js'
import { type Core, coreAs, ownerSession, type TestContext } from '../../../../test/harness.js'

/** An organisation with its owner (bearer), an unrestricted API key, a Member and a key scoped to Orders. */
export async function webhookSetup(ctx: TestContext) {
  const owner = await ownerSession(ctx)
  const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId)
  const scopedKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, {
    scopes: JSON.stringify({ Orders: 7 }),
  })
  const member = await addMember(ctx, owner.org.businessId, { role: 'Member' })
  const customerId = await insertCustomer(ctx, owner.org.businessId)
  return {
    ...owner,
    customerId,
    key: coreAs(ctx, { apiKey }),
    scoped: coreAs(ctx, { apiKey: scopedKey }),
    member: member.core,
  }
}

export const post = (core: Core, url: string, payload?: unknown) =>
  core({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) })

/**
 * Creates an endpoint, then takes its organisation off the list the delivery worker of a served
 * process visits: on PostgreSQL other test files run `cartage serve` over the same database, and
 * their worker must not deliver this file's events. The tests' own workers name their schemas.
 */
export async function createEndpoint(ctx: TestContext, core: Core, body: Record<string, unknown>) {
  const response = await post(core, '/api/v1/webhooks/endpoints', body)
  if (response.statusCode !== 200) throw new Error(`create endpoint: ${response.statusCode} ${response.body}`)
  const endpoint = response.json().data as { id: string; secret: string; url: string; businessId: string }
  await ctx.database.db
    .deleteFrom('global.webhook_schemas')
    .where('schema_name', '=', await schemaOf(ctx, endpoint.businessId))
    .execute()
  return endpoint
}

export async function createOrder(core: Core, customerId: string) {
  const response = await post(core, '/api/v1/orders', {
    customerId,
    lines: [{ description: 'Widget', quantity: 1, unitPrice: 10 }],
  })
  if (response.statusCode !== 200) throw new Error(`create order: ${response.statusCode} ${response.body}`)
  return response.json().data as { id: string; code: string }
}

export interface Received {
  headers: Record<string, string>
  body: string
  at: number
}

/** What the receiver answers to the n-th request (0-based). */
export type Answer = (
  n: number,
  request: Received,
) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }

/** A webhook receiver on 127.0.0.1 that records every request and answers as told. */
export async function startReceiver(answer: Answer = () => ({ status: 204 })) {
  const received: Received[] = []
  let behave = answer
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const entry = {
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      }
      const reply = behave(received.length, entry)
      received.push(entry)
      setTimeout(() => {
        response.writeHead(reply.status, reply.headers ?? {})
        response.end(reply.body ?? '')
      }, reply.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(next: Answer) {
      behave = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
