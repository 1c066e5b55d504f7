/**
 * Purchase orders: receiving a 50-line purchase order (a write: 50 PurchaseReceipt ledger entries,
 * each re-valued, in one transaction) and the stock of a product after 100,000 purchase receipts
 * (a read). The bare route runs the same statements a careful engineer would write by hand: the
 * row locks, the 50 ledger entries in one insert, their re-valuation (`stock_revalue` once per
 * product) in one statement and the products' stock in one update, the receipt and its lines in
 * one insert each, the notification, and the receipt read back in one statement.
 */
import type { DatabasePool } from '../src/db/lane-pool.js'
import { single } from '../src/http/envelopes.js'
import { stockAsOfQuery } from '../src/modules/manufacturing/stock/ledger.repository.js'
import { NOTIFICATION_CHANNEL } from '../src/modules/notifications/notifications.repository.js'
import { scopedReceipts } from '../src/modules/purchasing/purchase-orders/receipts.repository.js'
import { benchId, compiled, compiler } from './compiled-sql.js'
import { bearerHeaders, hasData, type Read, withEitherCredential } from './reads.js'
import {
  type Fresh,
  field,
  type ResolvedSeed,
  type Scenario,
  type Seed,
  type Statement,
} from './scenario-types.js'

export const PO_LINES = 50
export const PURCHASE_RECEIPTS = 100_000

const id = (seed: Seed, label: string) => benchId(seed.businessId, label)
const purchaseOrder = (seed: Seed) => id(seed, 'po')
const line = (seed: Seed, i: number) => id(seed, `po-line-${i}`)
const product = (seed: Seed, i: number) => id(seed, `po-product-${i}`)
const receivedProduct = (seed: Seed) => id(seed, 'po-stock-product')
const unitCost = (i: number) => (2 + i / 10).toFixed(6)
const lines = Array.from({ length: PO_LINES }, (_, i) => i)

// fresh.id(0): the receipt; fresh.id(1 + i): the ledger entry of line i; fresh.id(1 + PO_LINES + i): its receipt line.
const entryId = (fresh: Fresh, i: number) => fresh.id(1 + i)
const receiptLineId = (fresh: Fresh, i: number) => fresh.id(1 + PO_LINES + i)

const raw = (sql: string): Statement => ({ sql, params: () => [] })
const statement = (
  name: string,
  sql: (s: string) => string,
  params: (seed: ResolvedSeed, fresh: Fresh) => unknown[],
): Statement => ({ name: `bench-po-${name}`, sql: (seed) => sql(seed.schemaName), params })

const lockOrder = statement(
  'lock-order',
  (s) =>
    `SELECT id, number, status, supplier_id, currency, expected_date FROM "${s}".purchase_orders WHERE id = $1 AND business_id = $2 FOR UPDATE`,
  (seed) => [purchaseOrder(seed), seed.businessId],
)
const lockLines = statement(
  'lock-lines',
  (s) =>
    `SELECT id, line_number, product_id, quantity, unit_cost, received_quantity FROM "${s}".purchase_order_lines WHERE purchase_order_id = $1 ORDER BY line_number FOR UPDATE`,
  (seed) => [purchaseOrder(seed)],
)
const tolerance = statement(
  'tolerance',
  (s) => `SELECT key, value FROM "${s}".settings WHERE business_id = $1 AND key = $2`,
  (seed) => [seed.businessId, 'purchasing.receiptTolerancePercent'],
)
const lockProducts = statement(
  'lock-products',
  (s) =>
    `SELECT id, sku, name, type, on_hand, average_cost, reorder_level, archived_at FROM "${s}".products WHERE business_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
  (seed) => [seed.businessId, lines.map((i) => product(seed, i))],
)
const insertReceipt = statement(
  'insert-receipt',
  (s) =>
    `INSERT INTO "${s}".purchase_order_receipts (id, business_id, purchase_order_id, effective_date, notes, created_by_user_id) VALUES ($1, $2, $3, $4, NULL, $5)`,
  (seed, fresh) => [fresh.id(0), seed.businessId, purchaseOrder(seed), fresh.now, seed.userId],
)
const insertEntries = statement(
  'insert-entries',
  (s) =>
    `INSERT INTO "${s}".stock_ledger (id, business_id, product_id, type, quantity, received_cost, effective_date, reference, created_by_user_id)
     SELECT x.id, $1, x.product_id, 'PurchaseReceipt', 1, x.cost, $2, $3, $4
     FROM unnest($5::uuid[], $6::uuid[], $7::numeric[]) WITH ORDINALITY AS x(id, product_id, cost, n) ORDER BY x.n
     RETURNING product_id, effective_date, seq`,
  (seed, fresh) => [
    seed.businessId,
    fresh.now,
    'PO-BENCH',
    seed.userId,
    lines.map((i) => entryId(fresh, i)),
    lines.map((i) => product(seed, i)),
    lines.map(unitCost),
  ],
)
const revalue = statement(
  'revalue',
  (s) =>
    `SELECT x.product_id, r.last_balance, r.last_average
     FROM unnest($1::uuid[], $2::timestamptz[], $3::bigint[]) AS x(product_id, from_date, from_seq)
     CROSS JOIN LATERAL "${s}".stock_revalue(x.product_id, x.from_date, x.from_seq, NULL, NULL, false) r`,
  (_seed, fresh) => [
    fresh.previous.map((r) => r.product_id),
    fresh.previous.map((r) => r.effective_date),
    fresh.previous.map((r) => r.seq),
  ],
)
const updateStock = statement(
  'update-stock',
  (s) =>
    `UPDATE "${s}".products p SET on_hand = x.on_hand, average_cost = round(x.average_cost, 10), date_modified = now()
     FROM unnest($1::uuid[], $2::numeric[], $3::numeric[]) AS x(id, on_hand, average_cost) WHERE p.id = x.id`,
  (_seed, fresh) => [
    fresh.previous.map((r) => r.product_id),
    fresh.previous.map((r) => r.last_balance),
    fresh.previous.map((r) => r.last_average),
  ],
)
const insertReceiptLines = statement(
  'insert-receipt-lines',
  (s) =>
    `INSERT INTO "${s}".purchase_order_receipt_lines (id, receipt_id, purchase_order_line_id, product_id, quantity, unit_cost, ledger_entry_id)
     SELECT x.id, $1, x.line_id, x.product_id, 1, x.unit_cost, x.entry_id
     FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::numeric[], $6::uuid[]) AS x(id, line_id, product_id, unit_cost, entry_id)`,
  (seed, fresh) => [
    fresh.id(0),
    lines.map((i) => receiptLineId(fresh, i)),
    lines.map((i) => line(seed, i)),
    lines.map((i) => product(seed, i)),
    lines.map(unitCost),
    lines.map((i) => entryId(fresh, i)),
  ],
)
const addReceived = statement(
  'add-received',
  (s) =>
    `UPDATE "${s}".purchase_order_lines l SET received_quantity = l.received_quantity + 1, date_modified = clock_timestamp() WHERE l.id = ANY($1::uuid[])`,
  (seed) => [lines.map((i) => line(seed, i))],
)
const moveOrder = statement(
  'move-order',
  (s) =>
    `UPDATE "${s}".purchase_orders SET status = 'PartiallyReceived', date_modified = clock_timestamp() WHERE id = $1`,
  (seed) => [purchaseOrder(seed)],
)
const notify = statement(
  'notify',
  (s) =>
    `WITH created AS (
       INSERT INTO "${s}".notifications (id, business_id, user_id, title, message, level, priority, type, entity_type, entity_id, action_link)
       SELECT gen_random_uuid(), $1, m.user_id, 'Purchase order partly received', 'Goods of purchase order PO-BENCH were received.',
         'Info', 'Medium', 'Business', 'PurchaseOrder', $2, $3
       FROM global.memberships m JOIN global.businesses b ON b.organization_id = m.organization_id
       WHERE b.id = $1 AND m.status = 'Active' RETURNING 1)
     SELECT count(*)::int AS n FROM created`,
  (seed) => [seed.businessId, purchaseOrder(seed), `/api/v1/purchase-orders/${purchaseOrder(seed)}`],
)
const announce = statement(
  'announce',
  () => 'SELECT pg_notify($1, $2)',
  (seed) => [NOTIFICATION_CHANNEL, JSON.stringify({ schema: seed.schemaName, businessId: seed.businessId })],
)
const receiptQuery = (seed: ResolvedSeed, receiptId: string) =>
  compiled(
    scopedReceipts(compiler, seed.schemaName, seed.businessId, purchaseOrder(seed)).where(
      'r.id',
      '=',
      receiptId,
    ),
  )
const readReceipt: Statement = {
  sql: (seed) => receiptQuery(seed, '00000000-0000-0000-0000-000000000000').sql,
  params: (seed, fresh) => [...receiptQuery(seed, fresh.id(0)).parameters],
}

const receiveSteps: Statement[][] = [
  [raw('begin')],
  [lockOrder],
  [lockLines],
  [tolerance],
  [lockProducts],
  [insertReceipt],
  [insertEntries],
  [revalue],
  [updateStock],
  [insertReceiptLines],
  [addReceived],
  [moveOrder],
  [notify],
  [announce],
  [readReceipt],
  [raw('commit')],
]

const receiveRows = [0, 1, PO_LINES, 0, PO_LINES, 0, PO_LINES, PO_LINES, 0, 0, 0, 0, 1, 1, 1, 0]

interface ReceiptRow {
  id: string
  purchase_order_id: string
  number: string
  status: string
  effective_date: Date
  notes: string | null
  reversed_at: Date | null
  reversal_effective_date: Date | null
  date_created: Date
  lines: Record<string, unknown>[]
}

const receiveScenario: Scenario = {
  name: 'receive-po-50-lines',
  kind: 'write',
  // Every receipt locks the one purchase order: about ten a second, so rounds of 6 s.
  minRoundSeconds: 6,
  cartage: {
    api: 'core',
    method: 'POST',
    path: (seed) => `/api/v1/purchase-orders/${purchaseOrder(seed)}/receipts`,
    headers: bearerHeaders,
    body: (seed) => ({ lines: lines.map((i) => ({ lineId: line(seed, i), quantity: 1 })) }),
    check: (json) => hasData(json) && (field(field(json, 'data'), 'lines') as unknown[]).length === PO_LINES,
  },
  baseline: {
    steps: receiveSteps,
    oneConnection: true,
    rows: receiveRows,
    respond: (results) => {
      const row = results.at(-2)?.[0] as unknown as ReceiptRow
      return single('core', {
        id: row.id,
        purchaseOrderId: row.purchase_order_id,
        purchaseOrderNumber: row.number,
        purchaseOrderStatus: row.status,
        effectiveDate: row.effective_date.toISOString(),
        notes: row.notes,
        lines: row.lines,
        reversedAt: row.reversed_at?.toISOString() ?? null,
        reversalEffectiveDate: row.reversal_effective_date?.toISOString() ?? null,
        dateCreated: row.date_created.toISOString(),
      })
    },
  },
}

const stockRead: Statement = {
  sql: (seed) =>
    compiled(stockAsOfQuery(seed.schemaName, seed.businessId, receivedProduct(seed), new Date())).sql,
  params: (seed, fresh) => [
    ...compiled(stockAsOfQuery(seed.schemaName, seed.businessId, receivedProduct(seed), fresh.now))
      .parameters,
  ],
  unchecked: [0],
}

const reads: Read[] = [
  {
    name: 'stock-after-100k-purchase-receipts',
    path: (seed) => `/api/v1/products/${receivedProduct(seed)}/stock`,
    check: (json) => (field(field(json, 'data'), 'onHand') as number) === PURCHASE_RECEIPTS,
    steps: [[stockRead]],
    rows: [1],
  },
]

export const purchaseOrderScenarios: Scenario[] = [...withEitherCredential(reads), receiveScenario]

/**
 * Inserts, once per business: a supplier; 50 products on one Submitted purchase order of 10^9 each
 * (so the bench's receipts of 1 per line never complete it); and a product with 100,000
 * PurchaseReceipt entries of 1 at 10 and 12 in turn (on hand 100,000, average 11), re-valued by
 * stock_revalue as postings would leave it.
 */
export async function seedPurchaseOrders(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const s = seed.schemaName
  const biz = seed.businessId
  const exists = await pool.query(`SELECT 1 FROM "${s}".purchase_orders WHERE id = $1`, [purchaseOrder(seed)])
  if (exists.rowCount) return
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const supplier = id(seed, 'po-supplier')
    await client.query(
      `INSERT INTO "${s}".suppliers (id, business_id, code, name, currency) VALUES ($1, $2, 'SUP-BENCH', 'Bench supplier', 'USD')`,
      [supplier, biz],
    )
    await client.query(
      `INSERT INTO "${s}".products (id, business_id, sku, name, type)
       SELECT p.id, $1, 'BENCH-PO-' || p.n, 'Bench purchased ' || p.n, 'RawMaterial'
       FROM unnest($2::uuid[]) WITH ORDINALITY AS p(id, n)`,
      [biz, [...lines.map((i) => product(seed, i)), receivedProduct(seed)]],
    )
    await client.query(
      `INSERT INTO "${s}".purchase_orders (id, business_id, number, supplier_id, status, currency, total, submitted_at)
       VALUES ($1, $2, 'PO-BENCH', $3, 'Submitted', 'USD', 0, now())`,
      [purchaseOrder(seed), biz, supplier],
    )
    await client.query(
      `INSERT INTO "${s}".purchase_order_lines (id, business_id, purchase_order_id, line_number, product_id, quantity, unit_cost)
       SELECT x.id, $1, $2, x.n, x.product_id, 1000000000, x.unit_cost
       FROM unnest($3::uuid[], $4::uuid[], $5::numeric[]) WITH ORDINALITY AS x(id, product_id, unit_cost, n)`,
      [
        biz,
        purchaseOrder(seed),
        lines.map((i) => line(seed, i)),
        lines.map((i) => product(seed, i)),
        lines.map(unitCost),
      ],
    )
    await client.query(
      `UPDATE "${s}".purchase_orders SET total = (SELECT sum(line_total) FROM "${s}".purchase_order_lines WHERE purchase_order_id = $1) WHERE id = $1`,
      [purchaseOrder(seed)],
    )
    await client.query(
      `INSERT INTO "${s}".stock_ledger (id, business_id, product_id, type, quantity, received_cost, effective_date, reference)
       SELECT gen_random_uuid(), $1, $2, 'PurchaseReceipt', 1, CASE WHEN g % 2 = 1 THEN 10 ELSE 12 END,
         timestamptz '2020-01-01' + g * interval '1 minute', 'PO-BENCH-HISTORY'
       FROM generate_series(1, $3::int) AS g`,
      [biz, receivedProduct(seed), PURCHASE_RECEIPTS],
    )
    await client.query(`SELECT r.* FROM "${s}".stock_revalue($1, '-infinity', 0, NULL, NULL, false) r`, [
      receivedProduct(seed),
    ])
    await client.query(`UPDATE "${s}".products SET on_hand = $2, average_cost = 11 WHERE id = $1`, [
      receivedProduct(seed),
      PURCHASE_RECEIPTS,
    ])
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
}
