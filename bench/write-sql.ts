/**
 * POST /api/v1/Customers as a bare route would run it: one transaction on one connection, each
 * statement prepared, and the response read back in one statement.
 */
import type { Fresh, Statement } from './scenario-types.js'
import { findCustomer } from './tenant-sql.js'

/** The request body; the insert below carries the same values. */
export const NEW_CUSTOMER = { name: 'Bench Write', email: 'write@example.com' }

const customerId = (_seed: unknown, fresh: Fresh) => fresh.id(0)
const raw = (sql: string): Statement => ({ sql, params: () => [] })

/** db/sequences.ts `nextCode`. */
const nextCode: Statement = {
  name: 'bench-next-code',
  sql: ({ schemaName: s }) =>
    `\n    INSERT INTO "${s}"."sequences" AS s (business_id, name, last_value)\n    VALUES ($1, $2, 1)\n` +
    '    ON CONFLICT (business_id, name) DO UPDATE SET last_value = s.last_value + 1\n    RETURNING last_value',
  params: (seed) => [seed.businessId, 'customer'],
}

/** customers.repository.ts `insertCustomer`; the code is built from nextCode's value, as Cartage does. */
const insertCustomer: Statement = {
  name: 'bench-insert-customer',
  sql: ({ schemaName: s }) =>
    `insert into "${s}"."customers" ("name", "email", "phone_number", "customer_group_id", "type", "status", ` +
    '"billing_address", "shipping_address", "notes", "id", "business_id", "code", "metadata") ' +
    'values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)',
  params: (seed, fresh) => [
    NEW_CUSTOMER.name,
    NEW_CUSTOMER.email,
    null,
    null,
    'Individual',
    'Active',
    null,
    null,
    null,
    fresh.id(0),
    seed.businessId,
    `CUS-${String(fresh.previous[0]?.last_value).padStart(6, '0')}`,
    '{}',
  ],
}

/** activity/traces.ts `addTrace`. */
const addTrace: Statement = {
  name: 'bench-add-trace',
  sql: ({ schemaName: s }) =>
    `insert into "${s}"."activity_traces" ("id", "business_id", "customer_id", "order_id", "type", "note", "source", ` +
    '"created_by_user_id", "occurred_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
  params: (seed, fresh) => [
    fresh.id(1),
    seed.businessId,
    fresh.id(0),
    null,
    'CustomerCreated',
    null,
    'System',
    seed.userId,
    fresh.now,
  ],
}

export const createCustomerSteps: Statement[][] = [
  [raw('begin')],
  [nextCode],
  [insertCustomer],
  [addTrace],
  // The response inside the transaction: one statement.
  [findCustomer(customerId)],
  [raw('commit')],
]
