import type { TSchema } from '@sinclair/typebox'
import { Ajv, type AnySchema, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'
import type { Executor } from '../db/tables.js'

/**
 * The payload of every domain event, by event type. Each publishing module adds its own events in
 * its `<module>.events.ts` (TypeScript declaration merging, as db/tables.ts does for tables), as the
 * static type of the payload's TypeBox schema:
 *
 * ```ts
 * declare module '../../../platform/domain-events.js' {
 *   interface DomainEventPayloads { SupplierCreated: Static<typeof SupplierCreatedPayload> }
 * }
 * ```
 *
 * so `publish` and every handler are type-checked against one definition of each event.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declaration merging
export interface DomainEventPayloads {}

export type DomainEventType = keyof DomainEventPayloads & string

/**
 * Something that happened in a business that other modules react to (notifications, webhooks).
 * Handlers run inside the publisher's transaction, so an event and its effects commit or roll back
 * together and nothing is lost on a crash. A union over the event types: `switch (event.type)`
 * narrows the payload.
 */
export type DomainEvent<T extends DomainEventType = DomainEventType> = {
  [K in T]: {
    type: K
    businessId: string
    /** The user whose action caused it, when there is one. */
    userId: string | null
    payload: DomainEventPayloads[K]
  }
}[T]

/** What a notification says; entityType is a DispatchEntityType name. */
export interface NotificationContent {
  title: string
  message: string
  level: 'Standard' | 'Info' | 'Warning' | 'Error' | 'Success' | 'Recommendation'
  priority: 'Low' | 'Medium' | 'High' | 'Maximum'
  entityType: string
  entityId: string | null
  actionLink: string | null
}

/**
 * One event as its publishing module declares it: the payload's schema (the one definition the
 * notification, the webhook body and the OpenAPI document's `webhooks` share), how the business's
 * members are told of it, and what it is called on the webhook wire. Methods (not function-valued
 * properties) on purpose: a declaration of one event is then usable where any event's is expected,
 * and each is only ever called with its own event.
 */
export interface DomainEventDeclaration<T extends DomainEventType = DomainEventType> {
  /** The payload's TypeBox schema; its static type is the payload type the module merged in. */
  payload: TSchema & { static: DomainEventPayloads[T] }
  /** What happened, in one sentence. */
  description: string
  /** The notification the event leaves for the members of the business (absent: nobody is told). */
  notification?: {
    content(event: DomainEvent<T>): NotificationContent
    /** Other businesses whose members are told too (a transfer's other end). */
    alsoNotifies?(event: DomainEvent<T>): readonly string[]
  }
  /** The webhook event type it is delivered as (absent: no webhook carries it). */
  webhook?: {
    /** The name on the wire, `<resource>.<what happened>`. */
    type: string
    description: string
    /** The payload field naming the resource; events of one resource reach an endpoint in order. */
    resourceField: keyof DomainEventPayloads[T] & string
  }
}

/** A module's events, by type (`CartageModule.events`). */
export type DomainEventDeclarations = { readonly [K in DomainEventType]?: DomainEventDeclaration<K> }

/** Types a module's event declarations (and keeps them a plain object). */
export const defineEvents = <const D extends DomainEventDeclarations>(events: D): D => events

/** One declared event with its type, as the process knows it. */
export type DeclaredEvent = DomainEventDeclaration & { type: DomainEventType }

/** An event with its publishing module's declaration, as handlers receive it. */
export interface PublishedEvent {
  event: DomainEvent
  declared: DeclaredEvent
}

export type DomainEventHandler = ((
  db: Executor,
  schemaName: string,
  event: DomainEvent,
  /** The publishing module's declaration of the event. */
  declared: DeclaredEvent,
) => Promise<void>) & {
  /**
   * Handles the events of one `publishAll` together, in their order (one statement for all of
   * them, say); without it each is handled alone, in order.
   */
  many?: (db: Executor, schemaName: string, events: readonly PublishedEvent[]) => Promise<void>
}

/** What a service that publishes events is given. */
export interface DomainEventPublisher {
  publish(db: Executor, schemaName: string, event: DomainEvent): Promise<void>
  /**
   * Several events of one change (a plan's dispatch: one per shipment), in order: each handler
   * takes them all at once where it can (`many`), so a batch costs a statement per handler rather
   * than one per event.
   */
  publishAll(db: Executor, schemaName: string, events: readonly DomainEvent[]): Promise<void>
}

/** What a process's events are built from: every module's handlers and declared events. */
export interface DomainEventWiring {
  handlers: Iterable<readonly [string, DomainEventHandler]>
  declared: Iterable<DeclaredEvent>
}

type FormatsPlugin = (ajv: Ajv) => Ajv
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin

/**
 * Checks each payload against its declared schema as it is published: the types catch a renamed
 * field at compile time, this catches what they cannot (a value built from an `unknown`, a uuid
 * that is not one), before a notification, a webhook body or an audit entry carries it. Payloads
 * are taken as they are: no coercion, no defaults, nothing removed.
 */
function payloadCheckers(declared: Iterable<DeclaredEvent>): Map<string, ValidateFunction> {
  const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false })
  addFormats(ajv)
  const checkers = new Map<string, ValidateFunction>()
  for (const event of declared) checkers.set(event.type, ajv.compile(event.payload as AnySchema))
  return checkers
}

/** Thrown when a module publishes a payload its own declaration refuses: a programming error. */
export class InvalidEventPayloadError extends Error {
  constructor(type: string, problem: string) {
    super(`domain event ${type} is published with a payload its declaration refuses: ${problem}`)
    this.name = 'InvalidEventPayloadError'
  }
}

/**
 * The handlers and declared events of one process, registered when its services are created (from
 * every module's `eventHandlers` and `events`), whichever API the process serves.
 */
export class DomainEvents implements DomainEventPublisher {
  private readonly handlers = new Map<string, DomainEventHandler>()
  private readonly declarations = new Map<string, DeclaredEvent>()
  private readonly checkers: Map<string, ValidateFunction>

  constructor(wiring: DomainEventWiring = { handlers: [], declared: [] }) {
    for (const event of wiring.declared) {
      if (this.declarations.has(event.type)) throw new Error(`domain event ${event.type} is declared twice`)
      this.declarations.set(event.type, event)
    }
    this.checkers = payloadCheckers(this.declarations.values())
    for (const [name, handler] of wiring.handlers) this.on(name, handler)
  }

  /** Every declared event, in module order. */
  get declared(): readonly DeclaredEvent[] {
    return [...this.declarations.values()]
  }

  /** Adds a named handler; a name registered twice is a wiring mistake, not a replacement. */
  on(name: string, handler: DomainEventHandler): () => void {
    if (this.handlers.has(name)) throw new Error(`domain event handler ${name} is registered twice`)
    this.handlers.set(name, handler)
    return () => this.handlers.delete(name)
  }

  /**
   * Runs every handler in the caller's transaction, in registration order. An event no module
   * declares is a wiring mistake (its module is missing from apps/modules.ts); a payload its
   * declaration refuses is a programming error, thrown before any handler sees it (and the
   * publisher's transaction rolls back).
   */
  async publish(db: Executor, schemaName: string, event: DomainEvent): Promise<void> {
    const declared = this.checked(event)
    for (const handler of this.handlers.values()) await handler(db, schemaName, event, declared)
  }

  /**
   * The events in order, each checked as `publish` checks it before any handler runs; then each
   * handler in registration order takes them all (`many`) or one after another.
   */
  async publishAll(db: Executor, schemaName: string, events: readonly DomainEvent[]): Promise<void> {
    const published = events.map((event) => ({ event, declared: this.checked(event) }))
    if (published.length === 0) return
    for (const handler of this.handlers.values()) {
      if (handler.many) await handler.many(db, schemaName, published)
      else for (const { event, declared } of published) await handler(db, schemaName, event, declared)
    }
  }

  /** The event's declaration, once its payload is checked against it. */
  private checked(event: DomainEvent): DeclaredEvent {
    const declared = this.declarations.get(event.type)
    if (!declared) throw new Error(`domain event ${event.type} is published but no module declares it`)
    const check = this.checkers.get(event.type)
    if (check && !check(event.payload)) {
      const [first] = check.errors ?? []
      throw new InvalidEventPayloadError(
        event.type,
        `${first?.instancePath || '(payload)'} ${first?.message ?? ''}`,
      )
    }
    return declared
  }
}
