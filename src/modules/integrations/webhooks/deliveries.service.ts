import { invalidField } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import * as repository from './deliveries.repository.js'
import { endpointNotFound, eventNotFound } from './webhooks.errors.js'
import { toAttempt, toEvent } from './webhooks.mapper.js'
import { findEndpoint } from './webhooks.repository.js'
import type { ReplayRangeRequest } from './webhooks.schemas.js'

const ATTEMPTS: ListSpec = {
  fields: {
    outcome: { column: 'outcome', type: 'string' },
    eventType: { column: 'event_type', type: 'string' },
    responseStatus: { column: 'response_status', type: 'number' },
    latencyMs: { column: 'latency_ms', type: 'number' },
    attempt: { column: 'attempt', type: 'number' },
    dateCreated: { column: 'date_created', type: 'datetime' },
  },
  search: ['event_type', 'error'],
  defaultOrder: [{ column: 'date_created', direction: 'desc' }],
  tiebreak: 'id',
}

const EVENTS: ListSpec = {
  fields: {
    type: { column: 'ev.type', type: 'string' },
    dateCreated: { column: 'ev.date_created', type: 'datetime' },
  },
  search: ['ev.type', 'ev.resource_key'],
  defaultOrder: [{ column: 'ev.seq', direction: 'desc' }],
  tiebreak: 'ev.id',
}

/** The endpoint's delivery log: every attempt, test-sends included, newest first. */
export async function listAttempts(
  { database }: AppDeps,
  auth: BusinessAuth,
  endpointId: string,
  query: ListQuery,
) {
  if (!(await findEndpoint(database.db, auth.schemaName, auth.businessId, endpointId)))
    throw endpointNotFound()
  const { rows, total, page } = await runList(
    repository.scopedAttempts(database.db, auth.schemaName, auth.businessId, endpointId),
    query,
    ATTEMPTS,
  )
  return paged('core', rows.map(toAttempt), total, page)
}

export async function listEvents({ database }: AppDeps, auth: BusinessAuth, query: ListQuery) {
  const { rows, total, page } = await runList(
    repository.scopedEvents(database.db, auth.schemaName, auth.businessId),
    query,
    EVENTS,
  )
  return paged('core', rows.map(toEvent), total, page)
}

export async function replayEvent({ database }: AppDeps, auth: BusinessAuth, eventId: string) {
  const queued = await repository.replayEvent(database.db, auth.schemaName, auth.businessId, eventId)
  if (queued === null) throw eventNotFound()
  return { queued }
}

export async function replayRange(
  { database }: AppDeps,
  auth: BusinessAuth,
  endpointId: string,
  request: ReplayRangeRequest,
) {
  const from = new Date(request.from)
  const to = new Date(request.to)
  if (!(to > from)) throw invalidField('to', 'must be after from')
  if (!(await findEndpoint(database.db, auth.schemaName, auth.businessId, endpointId)))
    throw endpointNotFound()
  const queued = await repository.replayRange(
    database.db,
    auth.schemaName,
    auth.businessId,
    endpointId,
    from,
    to,
  )
  return { queued }
}
