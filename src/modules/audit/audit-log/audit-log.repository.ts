import type { Executor } from '../../../db/tables.js'

/** Records that belong to the organisation, not to one business: every business's log shows them. */
export const ORGANISATION_WIDE = ['Role', 'TeamMember'] as const

/** The business's entries, and the organisation-wide ones (roles, team members). */
export function scopedAuditLog(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('audit_log')
    .where((eb) =>
      eb.or([
        eb('business_id', '=', businessId),
        eb.and([eb('business_id', 'is', null), eb('entity_type', 'in', ORGANISATION_WIDE)]),
      ]),
    )
    .select([
      'id',
      'occurred_at',
      'business_id',
      'actor_type',
      'actor_id',
      'entity_type',
      'entity_id',
      'action',
      'changes',
      'payload',
      'request_id',
    ])
}

export type AuditLogRow = Awaited<ReturnType<ReturnType<typeof scopedAuditLog>['executeTakeFirstOrThrow']>>
