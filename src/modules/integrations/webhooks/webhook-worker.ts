import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { AppDeps } from '../../../platform/deps.js'
import { PeriodicTask } from '../../../platform/periodic-task.js'
import * as outbox from './outbox.repository.js'
import { signingSecrets } from './webhook-secrets.js'
import { type SendResult, STOPPED, sendWebhook } from './webhook-sender.js'

/**
 * Waits between attempts of one delivery (each with ±20% jitter): 11 attempts over about two days.
 * The last failure leaves the delivery Failed.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
]

export interface WorkerOptions {
  pollIntervalMs: number
  timeoutMs: number
  allowPrivateTargets: boolean
  retryScheduleMs: readonly number[]
  /** How long a claim holds a delivery; longer than the timeout, so a live sender never loses it. */
  leaseMs: number
  /** Deliveries claimed (and sent at once) per schema per round. */
  batchSize: number
  /**
   * Failed attempts in a row, with no success between, after which an endpoint whose delivery has
   * used up its attempts is disabled (default: one delivery's whole schedule, about two days).
   */
  disableAfterFailures: number
  /** Only these organisation schemas (a test's own, on a database other tests share); absent = all. */
  schemas?: readonly string[]
}

export function workerOptions(deps: AppDeps, overrides: Partial<WorkerOptions> = {}): WorkerOptions {
  const retryScheduleMs = overrides.retryScheduleMs ?? RETRY_SCHEDULE_MS
  const timeoutMs = overrides.timeoutMs ?? deps.config.webhooksTimeoutMs
  return {
    pollIntervalMs: deps.config.webhooksPollIntervalMs,
    timeoutMs,
    allowPrivateTargets: deps.config.webhooksAllowPrivateTargets,
    retryScheduleMs,
    // Three timeouts: a sender that is alive has settled long before another process may claim again.
    leaseMs: timeoutMs * 3,
    batchSize: 20,
    disableAfterFailures: retryScheduleMs.length + 1,
    ...overrides,
  }
}

const jittered = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4))

/**
 * Delivers the outbox: every poll, in each organisation schema that has endpoints, claims due
 * deliveries (SKIP LOCKED + lease), sends them outside any transaction, then settles each in a
 * short transaction with its log entry. At-least-once: a process killed after sending and before
 * settling leaves the claim to expire, and the delivery is sent again with the same webhook-id.
 */
export class WebhookWorker {
  private readonly task: PeriodicTask
  /** Aborted by `stop`: sends in flight end at once instead of at their timeout. */
  private readonly stopping = new AbortController()
  readonly options: WorkerOptions

  constructor(
    private readonly deps: AppDeps,
    overrides: Partial<WorkerOptions> = {},
    logger: FastifyBaseLogger | false = false,
  ) {
    this.options = workerOptions(deps, overrides)
    this.task = new PeriodicTask(
      () => this.runOnce(),
      this.options.pollIntervalMs,
      (error) => {
        if (logger) logger.warn({ err: error }, 'webhook delivery round failed')
      },
    )
  }

  start() {
    this.task.start()
  }

  /**
   * Stops polling, cuts the sends in flight short and waits for the round in progress. A send cut
   * short is not logged as an attempt: its claim lapses and it is sent again (same webhook-id).
   */
  stop() {
    this.stopping.abort()
    return this.task.stop()
  }

  /** One round over every schema with endpoints; the number of deliveries attempted. */
  async runOnce(): Promise<number> {
    let attempted = 0
    const schemas = this.options.schemas ?? (await outbox.schemasWithEndpoints(this.deps.database.db))
    for (const schema of schemas) {
      if (this.task.isStopped) break
      attempted += await this.runSchema(schema)
    }
    return attempted
  }

  private async runSchema(schema: string): Promise<number> {
    const { database } = this.deps
    const leaseToken = randomUUID()
    let claimed: outbox.ClaimedDelivery[]
    try {
      claimed = await outbox.claimDeliveries(
        database.db,
        schema,
        leaseToken,
        this.options.leaseMs,
        this.options.batchSize,
      )
    } catch (error) {
      // A schema dropped since it was listed (organisation removed) is skipped, not fatal to the round.
      if ((error as { code?: string }).code === '42P01' || (error as { code?: string }).code === '3F000')
        return 0
      throw error
    }
    await Promise.all(claimed.map((delivery) => this.deliver(schema, leaseToken, delivery)))
    return claimed.length
  }

  private async deliver(schema: string, leaseToken: string, delivery: outbox.ClaimedDelivery) {
    const body = JSON.stringify({
      type: delivery.event_type,
      timestamp: new Date(delivery.event_date).toISOString(),
      data: delivery.payload,
    })
    let secrets: string[] | undefined
    try {
      secrets = signingSecrets(this.deps.config, {
        businessId: delivery.business_id,
        endpointId: delivery.endpoint_id,
        secret: delivery.secret,
        previousSecret: delivery.previous_secret,
      })
    } catch {
      // Not sent unsigned: logged as a failed attempt and retried like one, so an operator sees it.
      secrets = undefined
    }
    const result: SendResult = secrets
      ? await sendWebhook(
          delivery.url,
          secrets,
          { id: delivery.event_id, body },
          { ...this.options, signal: this.stopping.signal },
        )
      : {
          outcome: 'Failed',
          responseStatus: null,
          responseBody: null,
          error:
            'the signing secret cannot be decrypted (WEBHOOKS_SECRETS_KEY differs from the key it was stored with)',
          latencyMs: 0,
        }
    if (result.error === STOPPED) return
    const succeeded = result.outcome === 'Succeeded'
    const exhausted = !succeeded && delivery.attempts > this.options.retryScheduleMs.length
    const wait = this.options.retryScheduleMs[delivery.attempts - 1] ?? 0
    await this.deps.database.db.transaction().execute(async (trx) => {
      await outbox.insertAttempt(trx, schema, {
        business_id: delivery.business_id,
        endpoint_id: delivery.endpoint_id,
        delivery_id: delivery.id,
        event_id: delivery.event_id,
        event_type: delivery.event_type,
        attempt: delivery.attempts,
        outcome: result.outcome,
        response_status: result.responseStatus,
        latency_ms: result.latencyMs,
        response_body: result.responseBody,
        error: result.error,
      })
      await outbox.settleDelivery(
        trx,
        schema,
        delivery.id,
        leaseToken,
        succeeded ? 'Delivered' : exhausted ? 'Failed' : 'Pending',
        succeeded || exhausted ? null : new Date(Date.now() + jittered(wait)),
      )
      const endpoint = await outbox.countEndpointOutcome(trx, schema, delivery.endpoint_id, succeeded)
      if (
        exhausted &&
        endpoint?.enabled &&
        endpoint.consecutive_failures >= this.options.disableAfterFailures
      ) {
        const reason = `${endpoint.consecutive_failures} failed attempts in a row; last: ${result.error ?? 'failed'}`
        if (await outbox.disableEndpoint(trx, schema, delivery.endpoint_id, reason)) {
          await this.deps.services.events.publish(trx, schema, {
            type: 'WebhookEndpointDisabled',
            businessId: delivery.business_id,
            userId: null,
            payload: { endpointId: delivery.endpoint_id, url: endpoint.url, reason },
          })
        }
      }
    })
  }
}
