import type { Executor } from '../db/tables.js'

/**
 * Something that happened in a business that other modules react to (notifications, for one).
 * Handlers run inside the publisher's transaction, so an event and its effects commit or roll back
 * together and nothing is lost on a crash.
 */
export interface DomainEvent {
  /** e.g. StockAtReorderLevel, WorkOrderCompleted, PlanDispatched, ShipmentDelivered, ApiKeyCreated */
  type: string
  businessId: string
  /** The user whose action caused it, when there is one. */
  userId: string | null
  payload: Record<string, unknown>
}

export type DomainEventHandler = (db: Executor, schemaName: string, event: DomainEvent) => Promise<void>

/** What a service that publishes events is given. */
export interface DomainEventPublisher {
  publish(db: Executor, schemaName: string, event: DomainEvent): Promise<void>
}

/**
 * The handlers of one process, registered by name when its services are created (from every
 * module's `eventHandlers`), whichever API the process serves.
 */
export class DomainEvents implements DomainEventPublisher {
  private readonly handlers = new Map<string, DomainEventHandler>()

  constructor(handlers: Iterable<readonly [string, DomainEventHandler]> = []) {
    for (const [name, handler] of handlers) this.on(name, handler)
  }

  /** Adds a named handler; a name registered twice is a wiring mistake, not a replacement. */
  on(name: string, handler: DomainEventHandler): () => void {
    if (this.handlers.has(name)) throw new Error(`domain event handler ${name} is registered twice`)
    this.handlers.set(name, handler)
    return () => this.handlers.delete(name)
  }

  /** Runs every handler in the caller's transaction, in registration order. */
  async publish(db: Executor, schemaName: string, event: DomainEvent): Promise<void> {
    for (const handler of this.handlers.values()) await handler(db, schemaName, event)
  }
}
