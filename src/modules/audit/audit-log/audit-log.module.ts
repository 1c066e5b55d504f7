import { defineModule, unauditedTablesOf } from '../../../platform/module.js'
import { registerAuditLogRoutes } from './audit-log.routes.js'
import * as createAuditFunctions from './migrations/20261127090000-create-audit-functions.js'
import * as createAuditLog from './migrations/20261127090000-create-audit-log.js'
import { attachAuditTriggers } from './migrations/attach-audit-triggers.js'

/**
 * The audit log (read with Settings View): every change of every organisation table, written by
 * database triggers in the transaction of the change, attributed to the request's actor
 * (db/actor.ts). See docs/architecture.md.
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
  migrations: {
    global: [{ name: '20261127090000-create-audit-functions', sql: createAuditFunctions.sql }],
    tenant: [{ name: '20261127090000-create-audit-log', sql: createAuditLog.sql }],
    // Made from every module's declarations, so each module names the tables the log leaves out.
    afterTenant: [(modules) => attachAuditTriggers(unauditedTablesOf(modules))],
  },
})
