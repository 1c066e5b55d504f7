import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const TRACE_SOURCES = ['User', 'System'] as const

export const ActivityTrace = Type.Object({
  id: Uuid(),
  customerId: Uuid(),
  orderId: Nullable(Uuid()),
  type: Type.String({
    description:
      'System entries: CustomerCreated, CustomerUpdated, CustomerDeleted, ContactAdded, ContactUpdated, ContactRemoved, AttachmentAdded, AttachmentRemoved, MetadataChanged, Order*; user entries carry the type the user gave (e.g. Call, Visit)',
  }),
  note: Nullable(Type.String()),
  source: EnumType(TRACE_SOURCES),
  createdBy: Nullable(
    Type.Object(
      { id: Uuid(), displayName: Type.String() },
      { description: 'who recorded it; for an API key, its creator' },
    ),
  ),
  occurredAt: DateTime({ description: 'when it happened (a user entry may be back-dated)' }),
  dateCreated: DateTime({ description: 'when it was recorded' }),
})
export type ActivityTrace = Static<typeof ActivityTrace>

export const MAX_FUTURE_MS = 24 * 60 * 60 * 1000

export const AddActivityTraceRequest = Type.Object({
  type: Type.String({ minLength: 1, maxLength: 50, description: 'e.g. Call, Email, Visit, Complaint' }),
  note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  occurredAt: Type.Optional(
    Nullable(
      DateTime({
        description:
          'default now; from 1970-01-01T00:00:00Z to at most one day in the future (scheduled follow-ups)',
      }),
    ),
  ),
})
export type AddActivityTraceRequest = Static<typeof AddActivityTraceRequest>
