import { defineModule, unauditedTablesOf } from '../../../platform/module.js'
import { recordEventInAuditLog } from './audit-events.handler.js'
import { forwardAllAuditEntries } from './audit-log.forward.js'
import { registerAuditLogRoutes } from './audit-log.routes.js'
import * as createAuditFunctions from './migrations/20261127090000-create-audit-functions.js'
import * as createAuditLog from './migrations/20261127090000-create-audit-log.js'
import * as auditLogRecordsEvents from './migrations/20261216090000-audit-log-records-events.js'
import * as largeValuesByDigest from './migrations/20261216090100-audit-records-large-values-by-digest.js'
import * as oneAuditActorFunction from './migrations/20261217090000-one-audit-actor-function.js'
import * as entriesOfOtherClusters from './migrations/20261231090000-audit-entries-of-other-clusters.js'
import { attachAuditTriggers } from './migrations/attach-audit-triggers.js'

/**
 * The audit log (read with Settings View): every change of every organisation table, written by
 * database triggers in the transaction of the change, attributed to the request's actor
 * (db/actor.ts), and every domain event with its payload. See docs/architecture.md.
 */
export const auditLogModule = defineModule({
  name: 'audit/audit-log',
  core: {
    tags: [
      {
        name: 'AuditLog',
        description: 'Who changed what and when, with each field before and after (Settings)',
      },
    ],
    routes: registerAuditLogRoutes,
  },
  // Each domain event is an entry too, with its payload (audit-events.handler.ts).
  eventHandlers: { audit: recordEventInAuditLog },
  // With DATABASE_CLUSTERS: the entries main keeps for organisations on other clusters reach their logs.
  periodicTasks: [
    {
      name: 'audit entries of other clusters',
      intervalMs: 5_000,
      round: (deps) => forwardAllAuditEntries(deps.database),
    },
  ],
  migrations: {
    global: [
      { name: '20261127090000-create-audit-functions', sql: createAuditFunctions.sql },
      { name: '20261216090100-audit-records-large-values-by-digest', sql: largeValuesByDigest.sql },
      { name: '20261217090000-one-audit-actor-function', sql: oneAuditActorFunction.sql },
      { name: '20261231090000-audit-entries-of-other-clusters', sql: entriesOfOtherClusters.sql },
    ],
    tenant: [
      { name: '20261127090000-create-audit-log', sql: createAuditLog.sql },
      { name: '20261216090000-audit-log-records-events', sql: auditLogRecordsEvents.sql },
    ],
    // Made from every module's declarations, so each module names the tables the log leaves out.
    afterTenant: [(modules) => attachAuditTriggers(unauditedTablesOf(modules))],
  },
})
