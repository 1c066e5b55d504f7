import { expect } from 'vitest'
import { registrationBody, uniqueEmail } from '../harness.js'

/** A JSON answer of a real server process. */
export interface Answer {
  status: number
  body: { data?: unknown; [key: string]: unknown }
  headers: Headers
}

export interface CallOptions {
  bearer?: string
  apiKey?: string
  businessId?: string
  body?: unknown
  idempotencyKey?: string
}

export async function call(
  base: string,
  method: string,
  url: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`
  if (options.apiKey) headers['x-dispatch-api-key'] = options.apiKey
  if (options.businessId) headers['x-business-id'] = options.businessId
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey
  const response = await fetch(`${base}${url}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  })
  const text = await response.text()
  let body: Answer['body'] = {}
  try {
    body = text ? (JSON.parse(text) as Answer['body']) : {}
  } catch {
    body = { text }
  }
  return { status: response.status, body, headers: response.headers }
}

export interface Owner {
  businessId: string
  userId: string
  accessToken: string
  email: string
  password: string
}

/** Registers an organisation through `global` and signs its owner in. */
export async function registerOwner(global: string, label = 'scale'): Promise<Owner> {
  const org = registrationBody({ email: uniqueEmail(label) })
  const registered = await call(global, 'POST', '/api/organizations', { body: org })
  expect(registered.status, JSON.stringify(registered.body)).toBe(200)
  const data = registered.body.data as { id: string; currentUser: { id: string } }
  const login = await call(global, 'POST', '/api/auth/login', {
    body: { email: org.user.email, password: org.user.password },
  })
  expect(login.status, JSON.stringify(login.body)).toBe(200)
  const accessToken = (login.body.data as { session: { accessToken: string } }).session.accessToken
  return {
    businessId: data.id,
    userId: data.currentUser.id,
    accessToken,
    email: org.user.email,
    password: org.user.password,
  }
}

/** Polls `check` every 50 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
