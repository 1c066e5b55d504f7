import type { Database } from '../../../db/database.js'
import { invalidField } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import { isDateOnly } from '../../../http/schema-helpers.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { forwardAuditEntries } from './audit-log.forward.js'
import * as repository from './audit-log.repository.js'
import type { AuditLogEntryResponse, AuditLogQuery } from './audit-log.schemas.js'

const LIST: ListSpec = {
  fields: {
    occurredAt: { column: 'occurred_at', type: 'datetime' },
    actorType: { column: 'actor_type', type: 'string' },
    actorId: { column: 'actor_id', type: 'uuid' },
    entityType: { column: 'entity_type', type: 'string' },
    entityId: { column: 'entity_id', type: 'string' },
    action: { column: 'action', type: 'string' },
  },
  search: ['entity_type', 'entity_id', 'action'],
  defaultOrder: [{ column: 'occurred_at', direction: 'desc' }],
  tiebreak: 'seq',
}

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())

export function toEntry(row: repository.AuditLogRow): AuditLogEntryResponse {
  return {
    id: row.id,
    occurredAt: row.occurred_at.toISOString(),
    businessId: row.business_id,
    actorType: row.actor_type,
    actorId: row.actor_id,
    entityType: row.entity_type,
    entityId: row.entity_id,
    action: row.action,
    changes: Object.fromEntries(
      Object.entries(row.changes).map(([column, change]) => [camel(column), change]),
    ),
    payload: row.payload,
    requestId: row.request_id,
  }
}

/** A date alone is the start of that day (from) or of the next day (to), UTC. */
function instant(value: string, field: 'from' | 'to'): Date {
  const at = new Date(isDateOnly(value) ? `${value}T00:00:00Z` : value)
  if (Number.isNaN(at.getTime())) throw invalidField(field, 'must be a valid date or date-time')
  if (field === 'to' && isDateOnly(value)) at.setUTCDate(at.getUTCDate() + 1)
  return at
}

export async function listAuditLog(database: Database, auth: BusinessAuth, query: AuditLogQuery) {
  // Role, member and API key changes of an organisation on another cluster wait on main: the log shows them at once.
  await forwardAuditEntries(database, auth.schemaName)
  let scoped = repository.scopedAuditLog(database.db, auth.schemaName, auth.businessId)
  if (query.entityType) scoped = scoped.where('entity_type', '=', query.entityType)
  if (query.entityId) scoped = scoped.where('entity_id', '=', query.entityId)
  if (query.actorId) scoped = scoped.where('actor_id', '=', query.actorId)
  if (query.from) scoped = scoped.where('occurred_at', '>=', instant(query.from, 'from'))
  if (query.to) scoped = scoped.where('occurred_at', '<', instant(query.to, 'to'))
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toEntry), total, page)
}
