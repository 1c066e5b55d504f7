import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Executor } from '../../db/tables.js'
import { AppError, invalidField } from '../../errors.js'
import type { ApiFlavor } from '../envelopes.js'
import { errorResponses } from '../error-responses.js'
import { addRouteHook, methodsOf } from '../route-hooks.js'
import {
  claimKey,
  completeKey,
  findKey,
  type KeyRef,
  purgeExpiredKeys,
  releaseKey,
} from './idempotency.repository.js'

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
export const REPLAYED_HEADER = 'Idempotent-Replayed'
/** 1 to 255 printable ASCII characters (a UUID is the usual choice). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/
/** Answers larger than this are not kept: the key is released and a retry runs again. */
export const MAX_STORED_BODY_BYTES = 1024 * 1024
/** Headers of the first answer that a replay repeats (the rest are per response). */
const REPLAYED_HEADERS = ['content-type', 'location'] as const

export interface IdempotencyOptions {
  /** How long a retry waits for the first request with its key to finish before a 409. */
  waitForFirstMs?: number
  /** How often a process purges expired keys (at most), in ms. */
  purgeEveryMs?: number
}

interface KeyState {
  ref: KeyRef
  /** Encrypts and decrypts the stored answer; derived from the key, which is not stored. */
  secret: Buffer
  fingerprint: string
  claimId?: string
  /** The claim has been completed or released (or the answer is a replay). */
  settled: boolean
}

/**
 * Idempotency-Key on every authenticated POST of either API: the first request with a key claims
 * it, and its answer (status, media type, body) is what a retry with the same key and the same
 * request gets back, marked `Idempotent-Replayed: true`, for 24 hours. Keys belong to the
 * credential's organisation. A retry while the first still runs waits for its answer; the same key
 * for a different request (another caller, business, path or body) is a 409 naming the header.
 * Server errors (5xx, 429) and answers too large to keep release the key, so a retry runs again;
 * other 4xx answers are kept, as the request did run. Public POSTs (registration, sign-in) and
 * uploads (multipart) ignore the header: a public answer (tokens) must never go to another caller.
 * Only a digest of the key is stored, and the answer is encrypted with a key derived from it: an
 * answer may hold a secret (a new API key's value) that only the caller holding the key may read.
 */
export function installIdempotency(
  app: FastifyInstance,
  flavor: ApiFlavor,
  db: Executor,
  options: IdempotencyOptions = {},
) {
  const waitForFirstMs = options.waitForFirstMs ?? 10_000
  const purgeEveryMs = options.purgeEveryMs ?? 10 * 60_000
  const states = new WeakMap<FastifyRequest, KeyState>()
  let lastPurge = 0

  // The answers the header adds (400 for a malformed key, 409 for a reused one) are declared on
  // every route it applies to, so the document and the response checks know them; its hooks are
  // on those routes only, so no other request pays for them.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access
    if (!methodsOf(route).includes('POST') || !access || 'public' in access) return
    addRouteHook(route, 'preValidation', takeKey)
    addRouteHook(route, 'preHandler', claim)
    addRouteHook(route, 'onSend', keep)
    addRouteHook(route, 'onResponse', settle)
    // Every API route has its responses from operation().
    const responses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response
    if (!responses) return
    const missing = ([400, 409] as const).filter((status) => !(status in responses))
    if (missing.length === 0) return
    const added = errorResponses(flavor, ...missing)
    for (const status of missing) responses[status] = added[status]
  })

  async function takeKey(request: FastifyRequest) {
    const raw = request.headers['idempotency-key']
    if (raw === undefined || !appliesTo(request)) return
    const key = Array.isArray(raw) ? raw.join(', ') : raw
    if (!VALID_KEY.test(key))
      throw invalidField(IDEMPOTENCY_HEADER, 'must be 1 to 255 printable ASCII characters')
    const auth = request.auth
    if (!auth) return
    // The body as parsed, before validation fills defaults: what the client sent.
    const body = createHash('sha256')
      .update(JSON.stringify(request.body ?? null))
      .digest('base64url')
    const caller = auth.kind === 'apiKey' ? `apiKey:${auth.apiKeyId}` : `user:${auth.userId}`
    const fingerprint = [
      caller,
      auth.businessId ?? '-',
      request.method,
      normalisedUrl(request.url),
      body,
    ].join(' ')
    states.set(request, {
      ref: { organizationId: auth.organizationId, keyHash: derive('digest', key).toString('base64url') },
      secret: derive('answer', key),
      fingerprint,
      settled: false,
    })
  }

  // After validation, so a request refused for its input does not hold the key.
  async function claim(request: FastifyRequest, reply: FastifyReply) {
    const state = states.get(request)
    if (!state) return
    const claimId = randomUUID()
    const deadline = Date.now() + waitForFirstMs
    for (let pause = 25; ; pause = Math.min(pause * 2, 400)) {
      if (await claimKey(db, state.ref, claimId, state.fingerprint)) {
        state.claimId = claimId
        return
      }
      const stored = await findKey(db, state.ref)
      if (!stored) {
        // Released or expired a moment ago: claim again (bounded, like the wait).
        if (Date.now() > deadline) throw keyInUse()
        continue
      }
      if (stored.fingerprint !== state.fingerprint) throw keyReused()
      if (stored.status !== null) {
        state.settled = true
        return replay(reply, stored.status, stored.headers ?? {}, open(state.secret, stored.body ?? ''))
      }
      if (Date.now() + pause > deadline) throw keyInUse()
      await sleep(pause)
    }
  }

  async function keep(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const state = states.get(request)
    if (!state?.claimId || state.settled) return payload
    state.settled = true
    const status = reply.statusCode
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : null
    try {
      if (
        status >= 500 ||
        status === 429 ||
        body === null ||
        Buffer.byteLength(body) > MAX_STORED_BODY_BYTES
      ) {
        await releaseKey(db, state.ref, state.claimId)
      } else {
        await completeKey(db, state.ref, state.claimId, {
          status,
          headers: headersOf(reply),
          body: seal(state.secret, body),
        })
      }
    } catch (error) {
      // The answer still goes out; the claim is then released (or goes stale).
      request.log.warn({ err: error }, 'could not store the idempotent answer')
      await releaseKey(db, state.ref, state.claimId).catch(() => {})
    }
    return payload
  }

  async function settle(request: FastifyRequest) {
    const state = states.get(request)
    if (!state) return
    // A request that ended without passing onSend (aborted, hijacked) gives its claim up.
    if (state.claimId && !state.settled) await releaseKey(db, state.ref, state.claimId).catch(() => {})
    if (Date.now() - lastPurge > purgeEveryMs) {
      lastPurge = Date.now()
      void purgeExpiredKeys(db).catch((error: unknown) =>
        request.log.warn({ err: error }, 'purging expired idempotency keys failed'),
      )
    }
  }
}

/** POSTs (of a signed-in caller: the hooks are on such routes only), with a JSON body or none. */
function appliesTo(request: FastifyRequest): boolean {
  if (request.method !== 'POST') return false
  const type = request.headers['content-type']
  return !(typeof type === 'string' && /^multipart\//i.test(type))
}

/** The path as the router matches it (any case, trailing slash or not), and the query as sent. */
function normalisedUrl(url: string): string {
  const at = url.indexOf('?')
  const path = (at < 0 ? url : url.slice(0, at)).toLowerCase().replace(/\/+$/, '')
  return at < 0 ? path : `${path}${url.slice(at)}`
}

/** Two independent values from one key: the row's digest and the answer's encryption key. */
const derive = (purpose: 'digest' | 'answer', key: string) =>
  createHash('sha256').update(`cartage-idempotency-${purpose}\u0000${key}`).digest()

/** AES-256-GCM: nonce, tag and ciphertext, base64. */
function seal(secret: Buffer, text: string): string {
  const nonce = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', secret, nonce)
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
  return Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64')
}

function open(secret: Buffer, stored: string): string {
  const bytes = Buffer.from(stored, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', secret, bytes.subarray(0, 12))
  decipher.setAuthTag(bytes.subarray(12, 28))
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')
}

function headersOf(reply: FastifyReply): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name)
    if (typeof value === 'string') kept[name] = value
  }
  return kept
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: string) {
  return reply.code(status).headers(headers).header(REPLAYED_HEADER, 'true').send(body)
}

const keyReused = () =>
  new AppError(
    409,
    'idempotency_key_reused',
    'This Idempotency-Key was used for a different request; use a new key for a new request.',
    [{ field: IDEMPOTENCY_HEADER, message: 'was used for a different request' }],
  )

const keyInUse = () =>
  new AppError(
    409,
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still running; retry later.',
    [{ field: IDEMPOTENCY_HEADER, message: 'is in use by a request still running' }],
  )
