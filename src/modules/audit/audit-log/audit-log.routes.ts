import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { AuditLogEntryResponse, AuditLogQuery } from './audit-log.schemas.js'
import { listAuditLog } from './audit-log.service.js'

/** The audit log (Settings View): who changed what, when, with each field before and after. */
export function registerAuditLogRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/audit-log',
    operation(['Settings', 'View'], {
      operationId: 'GetAuditLog',
      summary: 'Who changed what in the business, newest first',
      description:
        'One entry per change of a record (created, updated, status changed, deleted), written in the same transaction as the change: the actor (a user, an API key, or System), the record (entityType, entityId) and the fields that changed with their values before and after. Secrets are never recorded. Lists the business’s records and the organisation-wide ones (roles, team members, API keys of the business). ' +
        'Filters: entityType, entityId, actorId, from (inclusive), to (exclusive; a date alone: through that day). $filter/$orderby over occurredAt, actorType, actorId, entityType, entityId, action; $search matches entityType, entityId and action.',
      tags: ['AuditLog'],
      querystring: AuditLogQuery,
      response: PagedResult('core', AuditLogEntryResponse),
      errors: [400],
    }),
    async (request) => listAuditLog(database, businessAuthOf(request), request.query),
  )
}
