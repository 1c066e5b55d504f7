import type { Kysely, Transaction } from 'kysely'
import type { Tables } from '../db/tables.js'

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

export type DomainEventHandler = (
  db: Kysely<Tables> | Transaction<Tables>,
  schemaName: string,
  event: DomainEvent,
) => Promise<void>

const handlers = new Map<string, DomainEventHandler>()

/** Registers (or replaces) a named handler, so building an app twice in one process never doubles it. */
export function onDomainEvent(name: string, handler: DomainEventHandler): void {
  handlers.set(name, handler)
}

/** Runs every handler in the caller's transaction, in registration order. */
export async function publishDomainEvent(
  db: Kysely<Tables> | Transaction<Tables>,
  schemaName: string,
  event: DomainEvent,
): Promise<void> {
  for (const handler of handlers.values()) await handler(db, schemaName, event)
}
