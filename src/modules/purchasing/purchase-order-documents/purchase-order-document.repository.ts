import type { Executor } from '../../../db/tables.js'

/** The buyer (the business) and the supplier as the purchase order prints them, deleted suppliers included. */
export function parties(db: Executor, schema: string, businessId: string, supplierId: string) {
  return db
    .withSchema(schema)
    .selectFrom('businesses as b')
    .leftJoin('suppliers as s', (join) =>
      join.on('s.id', '=', supplierId).onRef('s.business_id', '=', 'b.id'),
    )
    .select([
      'b.display_name as business_name',
      'b.registered_name',
      's.email as supplier_email',
      's.address as supplier_address',
      's.payment_terms',
      's.tax_number',
    ])
    .where('b.id', '=', businessId)
    .executeTakeFirstOrThrow()
}
export type Parties = Awaited<ReturnType<typeof parties>>
