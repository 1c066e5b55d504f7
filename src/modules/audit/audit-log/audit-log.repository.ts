import type { Executor } from '../../../db/tables.js'

/** The business's entries, and the organisation-wide ones (roles, team members) every business shows. */
export function scopedAuditLog(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('audit_log')
    .where((eb) => eb.or([eb('business_id', '=', businessId), eb('business_id', 'is', null)]))
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
      'request_id',
    ])
}

export type AuditLogRow = Awaited<ReturnType<ReturnType<typeof scopedAuditLog>['executeTakeFirstOrThrow']>>
