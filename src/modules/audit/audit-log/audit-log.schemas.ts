import { type Static, Type } from '@sinclair/typebox'
import { ListQuery } from '../../../http/list-params.js'
import { DateOrDateTime, DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const AuditLogQuery = Type.Object({
  ...ListQuery.properties,
  entityType: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'e.g. Customer, Order, Role, ApiKey' }),
  ),
  entityId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'the changed record’s id' }),
  ),
  actorId: Type.Optional(Uuid({ description: 'the user or API key that made the change' })),
  from: Type.Optional(
    DateOrDateTime({ description: 'changes at or after this instant (a date: its start, UTC)' }),
  ),
  to: Type.Optional(
    DateOrDateTime({ description: 'changes before this instant (a date: the end of that day, UTC)' }),
  ),
})
export type AuditLogQuery = Static<typeof AuditLogQuery>

export const FieldChange = Type.Object(
  { before: Type.Unknown(), after: Type.Unknown() },
  { title: 'AuditFieldChange', description: 'a field’s value before and after the change (null: none)' },
)

export const AuditLogEntryResponse = Type.Object(
  {
    id: Uuid(),
    occurredAt: DateTime(),
    businessId: Nullable(Uuid({ description: 'null for organisation-wide records (roles, team members)' })),
    actorType: Type.String({ description: 'User, ApiKey or System (registration, migrations, jobs)' }),
    actorId: Nullable(Uuid({ description: 'the user’s or API key’s id; null for System' })),
    entityType: Type.String({ description: 'the kind of record, e.g. Customer, Order, Role, ApiKey' }),
    entityId: Nullable(Type.String()),
    action: Type.String({
      description:
        'Created, Updated, StatusChanged or Deleted for a change of a record; for a domain event, its type (e.g. OrderStatusChanged)',
    }),
    changes: Type.Record(Type.String(), FieldChange, {
      description:
        'the fields that changed, by name (camelCase), each with its value before and after; secrets and bookkeeping fields are never recorded',
    }),
    payload: Nullable(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'a domain event’s payload, as its webhook body carries it (the OpenAPI document’s webhooks describe each); null for a change of a record',
      }),
    ),
    requestId: Nullable(Type.String({ description: 'the X-Request-Id of the request that made the change' })),
  },
  { title: 'AuditLogEntryResponse' },
)
export type AuditLogEntryResponse = Static<typeof AuditLogEntryResponse>
