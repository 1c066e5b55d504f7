import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { beforeAll, describe, expect, it } from 'vitest'
import { registrationBody, uniqueEmail } from '../../../../test/harness.js'
import { createScratchDatabase } from '../../../../test/scratch-database.js'
import {
  PROCESS_TEST_TIMEOUT_MS,
  serverEnv,
  startServerProcess,
  stopServerProcess,
  useServerDataDir,
} from '../../../../test/server-process.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'

// `cartage serve` delivers webhooks; killed with SIGKILL while a delivery is in flight, a new
// process delivers everything that was written, and no event is being delivered twice at once.
const dataDir = useServerDataDir('cartage-webhooks-crash-')

// On PostgreSQL the processes get a database of their own: their worker delivers every
// organisation's webhooks, and must not touch other test files' organisations. The global
// teardown drops it (test/scratch-database.ts).
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined
beforeAll(async () => {
  const url = testDatabaseUrl()
  if (url) scratch = await createScratchDatabase(url, 'webhooks_crash')
})

const env = () =>
  serverEnv({
    dataDir: dataDir.path,
    databaseUrl: scratch?.url,
    vars: {
      RATE_LIMIT_PER_IP: '100000',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_POLL_INTERVAL_MS: '100',
      // A lease of three timeouts: 3 s.
      WEBHOOKS_TIMEOUT_MS: '1000',
    },
  })

interface Exchange {
  id: string
  body: string
  headers: Record<string, string>
  start: number
  end: number | undefined
  answered: boolean
}

/** A receiver that holds the first request unanswered (the process is killed meanwhile) and answers the rest. */
async function holdingReceiver() {
  const exchanges: Exchange[] = []
  let hold = true
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const exchange: Exchange = {
        id: String(request.headers['webhook-id']),
        body: Buffer.concat(chunks).toString('utf8'),
        headers: request.headers as Record<string, string>,
        start: Date.now(),
        end: undefined,
        answered: false,
      }
      exchanges.push(exchange)
      response.once('close', () => {
        exchange.end = Date.now()
      })
      if (hold) {
        hold = false
        return
      }
      exchange.answered = true
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    closeAll: () => server.closeAllConnections(),
  }
}

async function call(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`)
  return JSON.parse(text).data
}

const until = async (what: string, done: () => boolean, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('webhook delivery across a crash', () => {
  it(
    'loses nothing when the process is killed mid-delivery, and never has one event in flight twice',
    async () => {
      const receiver = await holdingReceiver()
      const first = await startServerProcess(env())
      const email = uniqueEmail('webhooks')
      const registered = await call(first.global, '/api/organizations', {
        method: 'POST',
        body: registrationBody({ email }),
      })
      const session = await call(first.global, '/api/auth/login', {
        method: 'POST',
        body: { email, password: registrationBody().user.password },
      })
      const headers = {
        authorization: `Bearer ${session.session.accessToken}`,
        'x-business-id': registered.id,
      }
      const endpoint = await call(first.core, '/api/v1/webhooks/endpoints', {
        method: 'POST',
        headers,
        body: { url: receiver.url, eventTypes: ['order.created'] },
      })
      const customer = await call(first.core, '/api/v1/customers', {
        method: 'POST',
        headers,
        body: { name: 'Crash test' },
      })
      const orders: string[] = []
      for (let i = 0; i < 5; i++) {
        const order = await call(first.core, '/api/v1/orders', {
          method: 'POST',
          headers,
          body: { customerId: customer.id, lines: [{ description: 'Widget', quantity: 1, unitPrice: 1 }] },
        })
        orders.push(order.id)
      }
      // The first delivery is in the receiver's hands, unanswered: kill the process now.
      await until('the first delivery', () => receiver.exchanges.length > 0)
      first.child.kill('SIGKILL')
      await first.exited
      const second = await startServerProcess(env())
      try {
        const events: { id: string }[] = await call(second.core, '/api/v1/webhooks/events?PageSize=100', {
          headers,
        })
        expect(events).toHaveLength(5)
        const answered = () => new Set(receiver.exchanges.filter((e) => e.answered).map((e) => e.id))
        await until('every event delivered', () => events.every((event) => answered().has(event.id)))
        for (const exchange of receiver.exchanges) {
          const payload = new Webhook(endpoint.secret).verify(exchange.body, exchange.headers) as {
            data: { orderId: string }
          }
          expect(orders).toContain(payload.data.orderId)
        }
        // The held delivery was sent again only after the killed process's lease ran out.
        receiver.closeAll()
        for (const id of new Set(receiver.exchanges.map((e) => e.id))) {
          const same = receiver.exchanges.filter((e) => e.id === id).sort((a, b) => a.start - b.start)
          for (let i = 1; i < same.length; i++)
            expect(same[i]!.start, `${id} sent again while in flight`).toBeGreaterThanOrEqual(
              same[i - 1]!.end ?? Number.POSITIVE_INFINITY,
            )
        }
        expect(receiver.exchanges.filter((e) => !e.answered)).toHaveLength(1)
      } finally {
        await stopServerProcess(second)
        await receiver.close()
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})
