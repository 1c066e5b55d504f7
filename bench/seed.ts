import { randomBytes } from 'node:crypto'
import type { Seed } from './scenario-types.js'

const PASSWORD = 'correct-horse-battery'
const CUSTOMERS = 50

interface Call {
  method: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: unknown
}

/** One request to the real API; anything but 200 stops the bench (the message names the call, never a secret). */
async function call<T>(url: string, { method, headers = {}, body }: Call): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  })
  const text = await response.text()
  if (response.status !== 200)
    throw new Error(`seeding: ${method} ${new URL(url).pathname}: ${response.status} ${text}`)
  return (JSON.parse(text) as { data: T }).data
}

function registration(tag: string, email: string) {
  return {
    business: {
      registeredName: `Bench Org ${tag}`,
      displayName: 'Bench Org',
      email: 'ops@example.com',
      phoneNumber: '+27 21 555 0100',
      website: 'https://example.com',
      registrationNumber: '2026/000001/07',
      requiresDispatchBuilder: true,
      address: { fullAddress: '1 Main Road, Cape Town', city: 'Cape Town', country: 'ZA' },
    },
    user: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      phoneNumber: '+27 82 000 0000',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      acceptedTerms: true,
    },
  }
}

/**
 * Through the real APIs: registers an organisation (same body as test/harness.ts), signs in,
 * creates an API key and `customers` customers (CUSTOMERS by default), and reads the first list page.
 */
export async function seed(globalBase: string, coreBase: string, customers = CUSTOMERS): Promise<Seed> {
  const tag = randomBytes(4).toString('hex')
  const email = `bench-${tag}@example.com`
  const org = await call<{ id: string; currentUser: { id: string } }>(`${globalBase}/api/organizations`, {
    method: 'POST',
    body: registration(tag, email),
  })
  const businessId = org.id
  const login = await call<{ session: { accessToken: string } | null }>(`${globalBase}/api/auth/login`, {
    method: 'POST',
    body: { email, password: PASSWORD },
  })
  if (!login.session) throw new Error('seeding: login asked for organisation selection')
  const { accessToken } = login.session
  const bearer = { authorization: `Bearer ${accessToken}` }
  const key = await call<{ token: string | null }>(`${globalBase}/api/auth/tokens`, {
    method: 'POST',
    headers: bearer,
    body: { businessId, label: 'bench' },
  })
  if (!key.token) throw new Error('seeding: POST /api/auth/tokens returned no token')
  const inBusiness = { ...bearer, 'x-business-id': businessId }
  let customerId = ''
  for (let i = 1; i <= customers; i++) {
    const customer = await call<{ id: string }>(`${coreBase}/api/v1/Customers`, {
      method: 'POST',
      headers: inBusiness,
      body: { name: `Bench Customer ${i}`, email: `customer-${i}@example.com` },
    })
    if (i === 1) customerId = customer.id
  }
  const page = await call<{ id: string }[]>(`${coreBase}/api/v1/Customers?PageSize=20`, {
    method: 'GET',
    headers: inBusiness,
  })
  return {
    email,
    businessId,
    userId: org.currentUser.id,
    accessToken,
    apiKey: key.token,
    customerId,
    pageIds: page.map((c) => c.id),
  }
}
