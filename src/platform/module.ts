import type { FastifyBaseLogger } from 'fastify'
import type { Migration, MigrationSet } from '../db/migrator.js'
import type { HttpApp } from '../http/kernel.js'
import type { OperationSchemaNames } from '../http/openapi-names.js'
import type { AppDeps } from './deps.js'
import type {
  DeclaredEvent,
  DomainEventDeclaration,
  DomainEventDeclarations,
  DomainEventHandler,
  DomainEventType,
  DomainEventWiring,
} from './domain-events.js'
import { PeriodicTask } from './periodic-task.js'

export interface OpenApiTag {
  name: string
  description: string
}

/** What a module serves on one of the two APIs. */
export interface ModuleApi {
  /** The OpenAPI tags its operations use, declared once with a description. */
  tags?: readonly OpenApiTag[]
  /**
   * Registers its routes; each route states its permission through `operation()` (http/operation.ts).
   * `modules` is every module of the process, for a module that serves what the others declare (the
   * SQL console their console views).
   */
  routes(app: HttpApp, deps: AppDeps, modules: readonly CartageModule[]): void
}

/**
 * A relation the SQL console exposes under its name: the columns a query sees of the module's
 * table `source`, and the rows (`filter`, SQL over that table: no deleted or archived rows).
 * Each organisation gets a view of it; the console scopes it to the caller's business.
 */
export interface ConsoleView {
  source: string
  filter: string
  columns: readonly string[]
}

export type ConsoleViews = Readonly<Record<string, ConsoleView>>

/** Work a served Core API (`cartage serve`) runs beside its routes: started when it is ready, stopped when it closes. */
export interface BackgroundWorker {
  /** Names it in logs. */
  name: string
  create(deps: AppDeps, logger: FastifyBaseLogger | false): { start(): void; stop(): Promise<unknown> }
}

/** A round of work a served Core API runs every `intervalMs` (platform/periodic-task.ts). */
export interface PeriodicTaskDeclaration {
  /** Names it in logs. */
  name: string
  intervalMs: number
  /** When the first round comes after start (default: at once). */
  firstRoundAfterMs?: number
  round(deps: AppDeps, logger: FastifyBaseLogger | false): Promise<unknown>
}

/** A step run after each batch of tenant migrations, or one made from every module's declarations. */
export type AfterTenantStep = Migration | ((modules: readonly CartageModule[]) => Migration)

/**
 * Everything the platform needs to know about a module, declared in the module's own folder
 * (`<module>.module.ts`). The apps list the modules (apps/modules.ts, one line each); nothing else
 * outside the folder changes when a module is added. Its table types sit beside it in
 * `<module>.tables.ts` (db/tables.ts says how).
 */
export interface CartageModule {
  /** `<area>/<module>`, as the folder under src/modules/. */
  name: string
  /** Routes on the Core API (business data). */
  core?: ModuleApi
  /** Routes on the Global API (identity). */
  global?: ModuleApi
  /** Names of the request and response records in the OpenAPI documents, by operationId. */
  schemaNames?: OperationSchemaNames
  /** Migrations the module adds, named `<timestamp>-<what it does>` (kept in its `migrations/` folder). */
  migrations?: {
    global?: readonly Migration[]
    tenant?: readonly Migration[]
    /** Idempotent steps run in a schema after each batch of tenant migrations (db/migrator.ts). */
    afterTenant?: readonly AfterTenantStep[]
  }
  /**
   * Its organisation tables the audit log leaves out: records that are a history already, counters
   * and derived tables (every other table is audited by the triggers the audit module attaches).
   */
  unauditedTables?: readonly string[]
  /** What the SQL console may read of the module's tables, by the name a query uses. */
  consoleViews?: ConsoleViews
  /** Long-running workers a served Core API runs (the webhook deliveries). */
  workers?: readonly BackgroundWorker[]
  /** Rounds of work a served Core API runs periodically. */
  periodicTasks?: readonly PeriodicTaskDeclaration[]
  /**
   * The domain events the module publishes (`<module>.events.ts`): each payload's schema, its
   * notification and its webhook event type. A type is declared by one module only.
   */
  events?: DomainEventDeclarations
  /** Reactions to domain events, by a name unique in the process; run in the publisher's transaction. */
  eventHandlers?: Readonly<Record<string, DomainEventHandler>>
}

/** Types a module declaration (and keeps it a plain object). */
export const defineModule = <const M extends CartageModule>(module: M): M => module

const byName = (a: Migration, b: Migration) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/**
 * The migrations of every module after the baseline, each set in name (timestamp) order. A name
 * given twice is a wiring mistake and stops the process before anything runs.
 */
export function migrationsOf(baseline: MigrationSet, modules: readonly CartageModule[]): MigrationSet {
  const collect = (kind: 'global' | 'tenant') => {
    const all = [...baseline[kind], ...modules.flatMap((m) => m.migrations?.[kind] ?? [])].sort(byName)
    const repeated = all.find((m, i) => i > 0 && all[i - 1]?.name === m.name)
    if (repeated) throw new Error(`migration ${repeated.name} is declared twice`)
    return all
  }
  return {
    global: collect('global'),
    tenant: collect('tenant'),
    afterTenant: modules.flatMap((m) =>
      (m.migrations?.afterTenant ?? []).map((step) => (typeof step === 'function' ? step(modules) : step)),
    ),
  }
}

/** Every module's console views, in module order; a name declared twice is a wiring mistake. */
export function consoleViewsOf(modules: readonly CartageModule[]): ConsoleViews {
  const views: Record<string, ConsoleView> = {}
  for (const [name, view] of modules.flatMap((m) => Object.entries(m.consoleViews ?? {}))) {
    if (name in views) throw new Error(`console view ${name} is declared twice`)
    views[name] = view
  }
  return views
}

/** Every module's tables the audit log leaves out. */
export const unauditedTablesOf = (modules: readonly CartageModule[]): string[] =>
  modules.flatMap((m) => m.unauditedTables ?? [])

/**
 * The background work of every module (its workers, and its periodic tasks each in a
 * `PeriodicTask`), for a served Core API to start when ready and stop when it closes.
 */
export function backgroundWorkOf(
  modules: readonly CartageModule[],
  deps: AppDeps,
  logger: FastifyBaseLogger | false,
): { name: string; start(): void; stop(): Promise<unknown> }[] {
  const workers = modules.flatMap((m) =>
    (m.workers ?? []).map((worker) => ({ name: worker.name, ...bind(worker.create(deps, logger)) })),
  )
  const periodic = modules.flatMap((m) =>
    (m.periodicTasks ?? []).map((declared) => {
      const task = new PeriodicTask(
        () => declared.round(deps, logger),
        declared.intervalMs,
        (error) => {
          if (logger) logger.warn({ err: error }, `${declared.name} failed`)
        },
      )
      return {
        name: declared.name,
        start: () => task.start(declared.firstRoundAfterMs),
        stop: () => task.stop(),
      }
    }),
  )
  return [...workers, ...periodic]
}

const bind = (work: { start(): void; stop(): Promise<unknown> }) => ({
  start: () => work.start(),
  stop: () => work.stop(),
})

/** Every module's declared events, in module order. */
export const declaredEventsOf = (modules: readonly CartageModule[]): DeclaredEvent[] =>
  modules.flatMap((m) =>
    Object.entries(m.events ?? {}).map(([type, declaration]) => ({
      ...(declaration as DomainEventDeclaration),
      type: type as DomainEventType,
    })),
  )

/** Every module's event handlers and declared events, in module order, for the process's `DomainEvents`. */
export const eventWiringOf = (modules: readonly CartageModule[]): DomainEventWiring => ({
  handlers: modules.flatMap((m) => Object.entries(m.eventHandlers ?? {})),
  declared: declaredEventsOf(modules),
})

/** The schema names of every module's operations, for the OpenAPI documents. */
export const schemaNamesOf = (modules: readonly CartageModule[]): OperationSchemaNames =>
  Object.assign({}, ...modules.map((m) => m.schemaNames ?? {}))
