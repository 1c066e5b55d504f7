import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { resolveTarget } from './webhook-target.js'

/** The most of a response body read (the rest is discarded unread), and the most kept in the log. */
export const RESPONSE_READ_LIMIT_BYTES = 64 * 1024
export const RESPONSE_LOG_LIMIT_CHARS = 2048

export interface WebhookMessage {
  /** webhook-id: the event's id, the same on every attempt, for the receiver's deduplication. */
  id: string
  body: string
}

export interface SendOptions {
  timeoutMs: number
  allowPrivateTargets: boolean
  /** Aborts the send (the process is stopping): the answer is then `Stopped`, not an attempt. */
  signal?: AbortSignal
}

export type SendOutcome = 'Succeeded' | 'Failed' | 'Refused'

/** A send cut short because the process is stopping: nothing to log, the claim lapses and another round sends it. */
export const STOPPED = 'stopped'

export interface SendResult {
  outcome: SendOutcome
  responseStatus: number | null
  responseBody: string | null
  error: string | null
  latencyMs: number
}

/**
 * The Standard Webhooks headers: webhook-signature carries one `v1,<base64>` per secret (during a
 * rotation's grace period both the new and the previous secret sign), space separated.
 */
export function signatureHeaders(message: WebhookMessage, secrets: readonly string[], at: Date) {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets
      .map((secret) => new Webhook(secret).sign(message.id, at, message.body))
      .join(' '),
  }
}

/**
 * POSTs one message: the host resolved and checked first, then the connection made to that address
 * only; no redirect is followed (a 3xx is a failure naming its Location); the response body is read
 * up to a cap; the whole exchange is bounded by the timeout.
 */
export async function sendWebhook(
  rawUrl: string,
  secrets: readonly string[],
  message: WebhookMessage,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const url = new URL(rawUrl)
  // One deadline for the whole exchange, the name's resolution included.
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout
  const stopped = () => options.signal?.aborted === true
  const target = await resolveTarget(url, options.allowPrivateTargets, signal)
  if ('aborted' in target)
    return {
      outcome: 'Failed',
      responseStatus: null,
      responseBody: null,
      error: stopped() ? STOPPED : `timed out after ${options.timeoutMs} ms`,
      latencyMs: elapsed(),
    }
  if ('refused' in target)
    return {
      outcome: 'Refused',
      responseStatus: null,
      responseBody: null,
      error: target.refused,
      latencyMs: elapsed(),
    }
  // The connection may go only to the addresses checked above (each one tried in turn when the
  // socket asks for all of them), whatever a later DNS answer would say.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    const [first] = target.addresses
    if (lookupOptions.all) callback(null, target.addresses)
    else if (first) callback(null, first.address, first.family)
  }
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Cartage-Webhooks/1',
    ...signatureHeaders(message, secrets, new Date()),
  }
  const transport = url.protocol === 'https:' ? https : http
  return new Promise<SendResult>((resolve) => {
    let settled = false
    const finish = (result: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return
      settled = true
      resolve({ ...result, latencyMs: elapsed() })
    }
    const fail = (error: string, responseStatus: number | null = null) =>
      finish({ outcome: 'Failed', responseStatus, responseBody: null, error })
    const request = transport.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(message.body) },
      lookup: pinned,
      agent: false,
      signal,
    })
    request.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        stopped()
          ? STOPPED
          : error.name === 'AbortError' || error.name === 'TimeoutError'
            ? `timed out after ${options.timeoutMs} ms`
            : (error.code ?? error.message),
      ),
    )
    request.once('response', (response) => {
      const status = response.statusCode ?? 0
      const chunks: Buffer[] = []
      let size = 0
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_LOG_LIMIT_CHARS)
        if (status >= 200 && status < 300)
          finish({ outcome: 'Succeeded', responseStatus: status, responseBody: text, error: null })
        else if (status >= 300 && status < 400)
          finish({
            outcome: 'Failed',
            responseStatus: status,
            responseBody: text,
            error: `redirect to ${String(response.headers.location ?? '(no Location)').slice(0, 500)} not followed`,
          })
        else
          finish({ outcome: 'Failed', responseStatus: status, responseBody: text, error: `HTTP ${status}` })
      }
      response.on('data', (chunk: Buffer) => {
        if (size >= RESPONSE_READ_LIMIT_BYTES) return
        chunks.push(chunk.subarray(0, RESPONSE_READ_LIMIT_BYTES - size))
        size += chunk.length
        // Enough read: the rest of a large (or endless) body is not waited for.
        if (size >= RESPONSE_READ_LIMIT_BYTES) {
          done()
          response.destroy()
        }
      })
      response.once('end', done)
      response.once('error', () => done())
      response.once('close', done)
    })
    request.end(message.body)
  })
}
