/**
 * Confirming a 50-line order (a write: the order moved, its 50 lines reserved against the stock
 * of their products, locked in id order, with its trace and events). Every confirmation takes a
 * fresh Draft order, seeded beforehand. The bare route runs what a careful engineer would write by
 * hand: the move, the product locks, the lines with what their products have left in one
 * statement, the reservations in one insert, the trace, the events' audit and outbox rows in one
 * statement, and the order read back with its lines in one.
 */
import { readAddress } from '../src/http/address.js'
import { single } from '../src/http/envelopes.js'
import { allocate } from '../src/modules/sales/reservations/reservations.rules.js'
import { eventsStatement } from './event-sql.js'
import { bearerHeaders } from './reads.js'
import {
  type Fresh,
  field,
  type ResolvedSeed,
  type Scenario,
  type Seed,
  type Statement,
} from './scenario-types.js'
import { CONFIRM_DRAFTS, CONFIRM_LINES, draftOrder } from './seed-order-to-door.js'

const NIL = '00000000-0000-0000-0000-000000000000'
const raw = (text: string): Statement => ({ sql: text, params: () => [] })
const confirmStatement = (
  name: string,
  text: (s: string) => string,
  params: (seed: ResolvedSeed, fresh: Fresh) => unknown[],
): Statement => ({ name: `bench-confirm-${name}`, sql: (seed) => text(seed.schemaName), params })

/** The baseline's draft: the n-th of its own range, after Cartage's (a nil id once they run out: a failure). */
const baselineDraft = (seed: Seed, fresh: Fresh) =>
  fresh.serial < CONFIRM_DRAFTS ? draftOrder(seed, CONFIRM_DRAFTS + fresh.serial) : NIL

const confirmOrder = confirmStatement(
  'order',
  (s) =>
    `UPDATE "${s}".orders SET status = 'Confirmed', confirmed_at = clock_timestamp(), date_modified = clock_timestamp()
     WHERE id = $1 AND business_id = $2 AND status = 'Draft' RETURNING id, code, customer_id`,
  (seed, fresh) => [baselineDraft(seed, fresh), seed.businessId],
)
const lockProducts = confirmStatement(
  'lock-products',
  (s) =>
    `SELECT p.id FROM "${s}".products p
     WHERE p.business_id = $1 AND p.id IN (SELECT l.product_id FROM "${s}".order_lines l WHERE l.order_id = $2)
     ORDER BY p.id FOR UPDATE`,
  (seed, fresh) => [seed.businessId, baselineDraft(seed, fresh)],
)
// After the lock: what each stocked line's product has left (on hand less what is reserved).
const linesAvailable = confirmStatement(
  'lines-available',
  (s) =>
    `SELECT l.id, l.line_number, l.product_id, l.quantity,
       p.on_hand - coalesce((SELECT sum(r.quantity) FROM "${s}".stock_reservations r
         WHERE r.business_id = $1 AND r.product_id = l.product_id AND r.quantity > 0), 0) AS available
     FROM "${s}".order_lines l JOIN "${s}".products p ON p.id = l.product_id AND p.business_id = $1 AND p.type <> 'Service'
     WHERE l.order_id = $2 ORDER BY l.line_number`,
  (seed, fresh) => [seed.businessId, baselineDraft(seed, fresh)],
)
interface LineAvailable {
  id: string
  line_number: number
  product_id: string
  quantity: string
  available: string
}
const allocationsOf = (fresh: Fresh) => {
  const lines = (fresh.results[3] ?? []) as unknown as LineAvailable[]
  const available = new Map(lines.map((l) => [l.product_id, Number(l.available)]))
  return allocate(
    lines.map((l) => ({
      lineId: l.id,
      lineNumber: l.line_number,
      productId: l.product_id,
      quantity: Number(l.quantity),
    })),
    available,
  )
}
const insertReservations = confirmStatement(
  'reserve',
  (s) =>
    `INSERT INTO "${s}".stock_reservations (id, business_id, order_id, order_line_id, product_id, quantity, backordered)
     SELECT gen_random_uuid(), $1, $2, x.line_id, x.product_id, x.quantity, x.backordered
     FROM unnest($3::uuid[], $4::uuid[], $5::numeric[], $6::numeric[]) AS x(line_id, product_id, quantity, backordered)`,
  (seed, fresh) => {
    const allocations = allocationsOf(fresh)
    return [
      seed.businessId,
      baselineDraft(seed, fresh),
      allocations.map((a) => a.lineId),
      allocations.map((a) => a.productId),
      allocations.map((a) => a.reserved),
      allocations.map((a) => a.short),
    ]
  },
)
const confirmedOrder = (fresh: Fresh) =>
  (fresh.results[1]?.[0] ?? {}) as { id: string; code: string; customer_id: string }
const traceConfirmed = confirmStatement(
  'trace',
  (s) =>
    `INSERT INTO "${s}".activity_traces (id, business_id, customer_id, order_id, type, note, source, created_by_user_id, occurred_at)
     VALUES (gen_random_uuid(), $1, $2, $3, 'OrderConfirmed', $4, 'System', $5, now())`,
  (seed, fresh) => {
    const order = confirmedOrder(fresh)
    return [seed.businessId, order.customer_id, order.id, `Order ${order.code} confirmed`, seed.userId]
  },
)
const confirmEvents = eventsStatement('confirm', (_seed, fresh) => {
  const order = confirmedOrder(fresh)
  const base = { orderId: order.id, code: order.code, customerId: order.customer_id }
  const lines = allocationsOf(fresh).map((a) => ({
    orderLineId: a.lineId,
    lineNumber: a.lineNumber,
    productId: a.productId,
    reserved: a.reserved,
    backordered: a.short,
  }))
  const ofOrder = { entityType: 'Order', resourceField: 'orderId' }
  return [
    { action: 'OrderReserved', type: 'order.reserved', ...ofOrder, payload: { ...base, lines } },
    {
      action: 'OrderStatusChanged',
      type: 'order.status_changed',
      ...ofOrder,
      payload: { ...base, from: 'Draft', to: 'Confirmed' },
    },
  ]
})
// The order as the route answers it, its lines aggregated in the same statement.
const readOrder = confirmStatement(
  'read',
  (s) =>
    `SELECT o.id, o.business_id, o.code, o.customer_id, c.name AS customer_name, o.status, o.order_date, o.currency,
       o.delivery_address, o.notes, o.total, o.confirmed_at, o.fulfilled_at, o.cancelled_at, o.date_created, o.date_modified,
       (SELECT coalesce(sum(r.value), 0) FROM "${s}".returns r
         WHERE r.order_id = o.id AND r.status IN ('Received', 'WrittenOff')) AS returned_value,
       (SELECT json_agg(json_build_object('id', l.id, 'lineNumber', l.line_number, 'productId', l.product_id,
          'description', l.description, 'quantity', l.quantity, 'unitPrice', l.unit_price, 'lineTotal', l.line_total)
          ORDER BY l.line_number) FROM "${s}".order_lines l WHERE l.order_id = o.id) AS lines
     FROM "${s}".orders o JOIN "${s}".customers c ON c.id = o.customer_id AND c.business_id = o.business_id
     WHERE o.business_id = $1 AND o.id = $2`,
  (seed, fresh) => [seed.businessId, baselineDraft(seed, fresh)],
)

interface OrderRead {
  id: string
  business_id: string
  code: string
  customer_id: string
  customer_name: string
  status: string
  order_date: Date
  currency: string
  delivery_address: unknown
  notes: string | null
  total: string
  returned_value: string
  confirmed_at: Date | null
  fulfilled_at: Date | null
  cancelled_at: Date | null
  date_created: Date
  date_modified: Date
  lines: unknown[]
}
const iso = (value: Date | null) => value?.toISOString() ?? null

const confirmScenario: Scenario = {
  name: 'confirm-order-50-lines',
  kind: 'write',
  // Confirmations lock the same 50 products: they run one at a time, so rounds of 6 s.
  minRoundSeconds: 6,
  cartage: {
    api: 'core',
    method: 'POST',
    sequential: true,
    path: (seed, n) => `/api/v1/orders/${n < CONFIRM_DRAFTS ? draftOrder(seed, n) : NIL}/confirm`,
    headers: bearerHeaders,
    check: (json) =>
      field(field(json, 'data'), 'status') === 'Confirmed' &&
      (field(field(json, 'data'), 'lines') as unknown[]).length === CONFIRM_LINES,
  },
  baseline: {
    steps: [
      [raw('begin')],
      [confirmOrder],
      [lockProducts],
      [linesAvailable],
      [insertReservations],
      [traceConfirmed],
      [confirmEvents],
      [readOrder],
      [raw('commit')],
    ],
    oneConnection: true,
    rows: [0, 1, CONFIRM_LINES, CONFIRM_LINES, 0, 0, 0, 1, 0],
    respond: (results) => {
      const row = results.at(-2)?.[0] as unknown as OrderRead
      return single('core', {
        id: row.id,
        businessId: row.business_id,
        code: row.code,
        customerId: row.customer_id,
        customer: { id: row.customer_id, name: row.customer_name },
        status: row.status,
        orderDate: row.order_date.toISOString(),
        currency: row.currency,
        deliveryAddress: readAddress(row.delivery_address as never),
        notes: row.notes,
        lines: row.lines,
        total: Number(row.total),
        returnedValue: Number(row.returned_value),
        confirmedAt: iso(row.confirmed_at),
        fulfilledAt: iso(row.fulfilled_at),
        cancelledAt: iso(row.cancelled_at),
        dateCreated: row.date_created.toISOString(),
        dateModified: row.date_modified.toISOString(),
      })
    },
  },
}

export const confirmScenarios: Scenario[] = [confirmScenario]
