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

export interface OpenApiTag {
  name: string
  description: string
}

/** What a module serves on one of the two APIs. */
export interface ModuleApi {
  /** The OpenAPI tags its operations use, declared once with a description. */
  tags?: readonly OpenApiTag[]
  /** Registers its routes; each route states its permission through `operation()` (http/operation.ts). */
  routes(app: HttpApp, deps: AppDeps): void
}

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
    afterTenant?: readonly Migration[]
  }
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
    afterTenant: modules.flatMap((m) => m.migrations?.afterTenant ?? []),
  }
}

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
