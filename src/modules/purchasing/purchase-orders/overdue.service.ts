import type { FastifyBaseLogger } from 'fastify'
import type { AppDeps } from '../../../platform/deps.js'
import { PeriodicTask } from '../../../platform/periodic-task.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { claimOverdue, organisationSchemas } from './purchase-orders.repository.js'

/** How often `cartage serve` looks for purchase orders that became overdue. */
export const OVERDUE_SWEEP_INTERVAL_MS = 10 * 60_000

/**
 * Claims the schema's newly overdue purchase orders (one business's, or with `businessId` null
 * all of them) and publishes PurchaseOrderOverdue for each, in one transaction: once per order.
 */
async function announceOverdue(deps: AppDeps, schema: string, businessId: string | null): Promise<number> {
  return deps.database.db.transaction().execute(async (trx) => {
    const overdue = await claimOverdue(trx, schema, businessId)
    for (const order of overdue) {
      await deps.services.events.publish(trx, schema, {
        type: 'PurchaseOrderOverdue',
        businessId: order.business_id,
        userId: null,
        payload: {
          purchaseOrderId: order.id,
          number: order.number,
          supplierId: order.supplier_id,
          expectedDate: order.expected_date,
        },
      })
    }
    return overdue.length
  })
}

/**
 * Announces the business's newly overdue purchase orders. Run when its purchase orders or the
 * dashboard figures are read, so someone looking sees an order overdue at once; the sweep below
 * announces the rest within its interval.
 */
export function notifyOverdue(deps: AppDeps, auth: BusinessAuth): Promise<number> {
  return announceOverdue(deps, auth.schemaName, auth.businessId)
}

/**
 * Every OVERDUE_SWEEP_INTERVAL_MS while `cartage serve` runs, announces the newly overdue purchase
 * orders of every organisation, so an order becomes overdue without anyone reading it. Several
 * processes may sweep at once: each order is claimed once.
 */
export class OverdueSweep {
  private readonly task: PeriodicTask

  constructor(
    private readonly deps: AppDeps,
    private readonly logger: FastifyBaseLogger | false = false,
    private readonly intervalMs = OVERDUE_SWEEP_INTERVAL_MS,
  ) {
    this.task = new PeriodicTask(
      () => this.runOnce(),
      intervalMs,
      (error) => {
        if (logger) logger.warn({ err: error }, 'overdue sweep failed')
      },
    )
  }

  /**
   * The first sweep comes one interval after start, not at once: a process that starts visits every
   * organisation's schema otherwise, and reads of the list announce what is overdue meanwhile.
   */
  start() {
    this.task.start(this.intervalMs)
  }

  stop() {
    return this.task.stop()
  }

  /** One sweep over every organisation (or `schemas`); the number of orders announced. */
  async runOnce(schemas?: readonly string[]): Promise<number> {
    let announced = 0
    for (const schema of schemas ?? (await organisationSchemas(this.deps.database.db))) {
      if (this.task.isStopped) break
      try {
        announced += await announceOverdue(this.deps, schema, null)
      } catch (error) {
        // One organisation's failure (its schema dropped since it was listed) leaves the others swept.
        if (this.logger) this.logger.warn({ err: error, schema }, 'overdue sweep of a schema failed')
      }
    }
    return announced
  }
}
