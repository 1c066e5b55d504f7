import type { Executor } from '../../../db/tables.js'

/** A shipment as its delivery note prints it, with its business, customer and plan (one statement). */
export function shipmentForNote(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .innerJoin('businesses as b', 'b.id', 's.business_id')
    .leftJoin('customers as c', 'c.id', 's.customer_id')
    .leftJoin('delivery_plans as p', 'p.id', 's.delivery_plan_id')
    .select([
      's.id',
      's.code',
      's.status',
      's.delivery_address',
      's.weight',
      's.volume',
      's.notes',
      's.scheduled_date',
      's.dispatched_at',
      's.delivered_at',
      's.order_id',
      'b.display_name as business_name',
      'c.name as customer_name',
      'p.code as plan_code',
      'p.scheduled_date as plan_date',
    ])
    .where('s.business_id', '=', businessId)
    .where('s.id', '=', id)
    .executeTakeFirst()
}
export type NoteShipment = NonNullable<Awaited<ReturnType<typeof shipmentForNote>>>

/** The delivery's proof: its latest Delivered operation and where its signature is stored. */
export function deliveryProof(db: Executor, schema: string, businessId: string, shipmentId: string) {
  return db
    .withSchema(schema)
    .selectFrom('stop_operations as o')
    .leftJoin('files as f', 'f.id', 'o.signature_file_id')
    .select([
      'o.recipient_name',
      'o.occurred_at',
      'o.latitude',
      'o.longitude',
      'o.photo_file_ids',
      'o.note',
      'f.storage_key as signature_key',
      'f.size_bytes as signature_bytes',
    ])
    .where('o.business_id', '=', businessId)
    .where('o.shipment_id', '=', shipmentId)
    .where('o.kind', '=', 'Delivered')
    .orderBy('o.date_created', 'desc')
    .limit(1)
    .executeTakeFirst()
}
export type DeliveryProof = NonNullable<Awaited<ReturnType<typeof deliveryProof>>>

/** A plan with its vehicle and business, for its route sheet and pick list. */
export function planForSheet(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .selectFrom('delivery_plans as p')
    .innerJoin('businesses as b', 'b.id', 'p.business_id')
    .leftJoin('vehicles as v', 'v.id', 'p.vehicle_id')
    .select([
      'p.id',
      'p.code',
      'p.name',
      'p.status',
      'p.scheduled_date',
      'p.driver_name',
      'p.distance_km',
      'v.registration',
      'b.display_name as business_name',
    ])
    .where('p.business_id', '=', businessId)
    .where('p.id', '=', id)
    .executeTakeFirst()
}
export type SheetPlan = NonNullable<Awaited<ReturnType<typeof planForSheet>>>

/** The plan's stops in order, each with its customer. */
export function stopsOf(db: Executor, schema: string, businessId: string, planId: string) {
  return db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .leftJoin('customers as c', 'c.id', 's.customer_id')
    .select([
      's.id',
      's.code',
      's.status',
      's.stop_sequence',
      's.delivery_address',
      's.weight',
      's.volume',
      's.notes',
      'c.name as customer_name',
    ])
    .where('s.business_id', '=', businessId)
    .where('s.delivery_plan_id', '=', planId)
    .orderBy('s.stop_sequence')
    .orderBy('s.code')
    .execute()
}
export type SheetStop = Awaited<ReturnType<typeof stopsOf>>[number]
