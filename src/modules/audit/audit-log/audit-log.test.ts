import { randomUUID } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  businessSession,
  createApiKey,
  fieldsOf,
  schemaOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { type Core, coreAs, globalAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { MIGRATIONS } from '../../../apps/modules.js'
import { applyTenantMigrations } from '../../../db/migrator.js'
import { CUSTOMERS, createCustomer } from '../../customers/customers/customers.fixtures.js'
import { circle } from '../../delivery/zones/zones.fixtures.js'
import { createProduct, move } from '../../manufacturing/manufacturing.fixtures.js'
import { createOrder, line } from '../../sales/orders/orders.fixtures.js'

const ctx = useTestContext()
// A story about one business's records gets a new business of a shared organisation; those about
// the organisation's own records (roles, API keys, its schema) or another organisation register their own.
useSharedOrganisation(ctx)
const AUDIT = '/api/v1/audit-log'

type Entry = {
  id: string
  businessId: string | null
  actorType: string
  actorId: string | null
  entityType: string
  entityId: string | null
  action: string
  changes: Record<string, { before: unknown; after: unknown }>
  payload: Record<string, unknown> | null
  requestId: string | null
}

/** The entries of one record, oldest first. */
async function entriesOf(core: Core, entityType: string, entityId: string): Promise<Entry[]> {
  const response = await core({ url: AUDIT, query: { entityType, entityId, $orderby: 'occurredAt asc' } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data
}

describe('GET /api/v1/audit-log', () => {
  it('leaves stock movements to the ledger: a receipt adds no product entry, a rename does', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const product = await createProduct(owner.core, { name: 'Audited rod' })
    await move(owner.core, product.id, { type: 'Receipt', quantity: 10, unitCost: 2 })
    await move(owner.core, product.id, { type: 'Issue', quantity: 3 })
    const renamed = await owner.core({
      method: 'PUT',
      url: `/api/v1/products/${product.id}`,
      payload: { sku: product.sku, name: 'Audited rod, 8 mm', type: 'RawMaterial' },
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    const entries = await entriesOf(owner.core, 'Product', product.id)
    expect(entries.map((e) => e.action)).toEqual(['Created', 'Updated'])
    expect(entries[1]?.changes).toMatchObject({ name: { before: 'Audited rod', after: 'Audited rod, 8 mm' } })
    expect(entries[1]?.changes).not.toHaveProperty('on_hand')
  })

  it('shows a customer’s changes with the fields before and after, and who made them (user, then API key)', async () => {
    const owner = await ownerSession(ctx)
    const customer = await createCustomer(owner.core, { name: 'Audit Stores', email: 'old@example.com' })
    const renamed = await owner.core({
      method: 'PUT',
      url: `${CUSTOMERS}/${customer.id}`,
      payload: { name: 'Audit Stores Ltd', email: 'old@example.com' },
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId)
    const byKey = coreAs(ctx, { apiKey })
    expect(
      (
        await byKey({
          method: 'PUT',
          url: `${CUSTOMERS}/${customer.id}`,
          payload: { name: 'Audit Stores Ltd', email: 'new@example.com' },
        })
      ).statusCode,
    ).toBe(200)
    const keyId = (
      await globalAs(ctx, { bearer: owner.signedIn.accessToken })({ url: '/api/auth/tokens' })
    ).json().data[0].id

    const entries = await entriesOf(owner.core, 'Customer', customer.id)
    expect(entries.map((e) => [e.action, e.actorType])).toEqual([
      ['Created', 'User'],
      ['Updated', 'User'],
      ['Updated', 'ApiKey'],
    ])
    const [created, byUser, byApiKey] = entries as [Entry, Entry, Entry]
    expect(created).toMatchObject({ actorId: owner.org.userId, businessId: owner.org.businessId })
    expect(created.changes.name).toEqual({ before: null, after: 'Audit Stores' })
    expect(byUser.changes).toEqual({ name: { before: 'Audit Stores', after: 'Audit Stores Ltd' } })
    expect(byUser.requestId).toBe(renamed.headers['x-request-id'])
    expect(byApiKey).toMatchObject({
      actorId: keyId,
      changes: { email: { before: 'old@example.com', after: 'new@example.com' } },
    })

    const removed = await owner.core({ method: 'DELETE', url: `${CUSTOMERS}/${customer.id}` })
    expect(removed.statusCode).toBe(200)
    const deleted = (await entriesOf(owner.core, 'Customer', customer.id)).at(-1)
    expect(deleted).toMatchObject({ action: 'Deleted', actorType: 'User' })
    // The filters: by actor, by period, by $filter.
    const mine = await owner.core({ url: AUDIT, query: { actorId: keyId } })
    expect(mine.json().data.map((e: Entry) => e.entityId)).toEqual([customer.id])
    const later = await owner.core({
      url: AUDIT,
      query: { from: new Date(Date.now() + 60_000).toISOString() },
    })
    expect(later.json().totalCount).toBe(0)
    const filtered = await owner.core({
      url: AUDIT,
      query: { $filter: `action eq 'Deleted' and entityType eq 'Customer'` },
    })
    expect(filtered.json().data.map((e: Entry) => e.entityId)).toEqual([customer.id])
  })

  it('names the writer of each of many concurrent writes among reads, and of a write after they are done', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId)
    const byKey = coreAs(ctx, { apiKey })
    const customers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createCustomer(owner.core, { name: `Concurrent ${i}` })),
    )
    const rename = (i: number, name = `Concurrent ${i}, renamed`) =>
      (i % 2 === 0 ? owner.core : byKey)({
        method: 'PUT',
        url: `${CUSTOMERS}/${customers[i]!.id}`,
        payload: { name },
      })
    const read = () => owner.core({ url: CUSTOMERS })
    const responses = await Promise.all(customers.flatMap((_, i) => [read(), rename(i), read()]))
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 200))
    const later = await rename(1, 'Concurrent 1, renamed again')
    for (const [i, customer] of customers.entries()) {
      const updated = (await entriesOf(owner.core, 'Customer', customer.id)).filter(
        (e) => e.action === 'Updated',
      )
      const renamedBy = i === 1 ? [responses[3 * i + 1]!, later] : [responses[3 * i + 1]!]
      expect(updated.map((e) => [e.actorType, e.requestId])).toEqual(
        renamedBy.map((r) => [i % 2 === 0 ? 'User' : 'ApiKey', r.headers['x-request-id']]),
      )
    }
  })

  it('records an order’s status move as StatusChanged', async () => {
    const { core, org } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core)
    const order = await createOrder(core, { customerId: customer.id, lines: [line(2, 10)] })
    expect((await core({ method: 'POST', url: `/api/v1/orders/${order.id}/confirm` })).statusCode).toBe(200)
    const moves = (await entriesOf(core, 'Order', order.id)).filter((e) => e.action === 'StatusChanged')
    expect(moves).toHaveLength(1)
    expect(moves[0]?.changes.status).toEqual({ before: 'Draft', after: 'Confirmed' })
    // An order line has no business of its own: its entry is filed under its order's business.
    const lines = await core({ url: AUDIT, query: { entityType: 'OrderLine' } })
    expect(lines.json().data).toEqual([
      expect.objectContaining({
        action: 'Created',
        businessId: org.businessId,
        changes: expect.objectContaining({ orderId: { before: null, after: order.id } }),
      }),
    ])
  })

  it('records each domain event with its payload and actor, beside the row changes, in the same transaction', async () => {
    const { core, org } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core)
    const order = await createOrder(core, { customerId: customer.id, lines: [line(2, 10)] })
    const confirmed = await core({ method: 'POST', url: `/api/v1/orders/${order.id}/confirm` })
    expect(confirmed.statusCode).toBe(200)
    const events = (await entriesOf(core, 'Order', order.id)).filter((e) => e.action.startsWith('Order'))
    expect(events).toEqual([
      expect.objectContaining({
        action: 'OrderCreated',
        actorType: 'User',
        actorId: org.userId,
        changes: {},
        payload: expect.objectContaining({ orderId: order.id, customerId: customer.id, status: 'Draft' }),
      }),
      expect.objectContaining({
        action: 'OrderStatusChanged',
        payload: expect.objectContaining({ orderId: order.id, from: 'Draft', to: 'Confirmed' }),
        requestId: confirmed.headers['x-request-id'],
      }),
    ])
    // A row change has no payload.
    const created = (await entriesOf(core, 'Order', order.id)).find((e) => e.action === 'Created')
    expect(created).toMatchObject({ payload: null })
  })

  it('records a large value (a zone’s geometry) by its size and digest, and a small one whole', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const geometry = { type: 'Polygon', coordinates: [circle(400, 0, 0, 1)] }
    const created = await core({
      method: 'POST',
      url: '/api/v1/DeliveryZones',
      payload: { name: 'Round', polygon: geometry },
    })
    expect(created.statusCode, created.body).toBe(200)
    const [entry] = await entriesOf(core, 'DeliveryZone', created.json().data.id)
    const recorded = Object.values(entry?.changes ?? {}).map((change) => change.after)
    expect(recorded).toContainEqual({
      omitted: 'too large to record',
      bytes: expect.any(Number),
      md5: expect.stringMatching(/^[0-9a-f]{32}$/),
    })
    expect(entry?.changes.name).toEqual({ before: null, after: 'Round' })
  })

  it('records role and API key changes in the organisation’s log, never a secret', async () => {
    const owner = await ownerSession(ctx)
    const role = await owner.core({
      method: 'POST',
      url: '/api/team/roles',
      payload: { name: 'Dispatch', permissions: { Orders: 7 } },
    })
    expect(role.statusCode, role.body).toBe(200)
    const roleId = role.json().data.id
    const changed = await owner.core({
      method: 'PUT',
      url: `/api/team/roles/${roleId}`,
      payload: { name: 'Dispatch', permissions: { Orders: 1 } },
    })
    expect(changed.statusCode, changed.body).toBe(200)
    const roleEntries = await entriesOf(owner.core, 'Role', roleId)
    expect(roleEntries.map((e) => [e.action, e.actorType, e.businessId])).toEqual([
      ['Created', 'User', null],
      ['Updated', 'User', null],
    ])
    expect(Object.keys(roleEntries[1]?.changes ?? {})).toEqual(['permissions'])

    const key = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, {
      label: 'audited',
    })
    const keys = await owner.core({ url: AUDIT, query: { entityType: 'ApiKey' } })
    const [keyEntry] = keys.json().data as Entry[]
    expect(keyEntry).toMatchObject({ action: 'Created', actorType: 'User', actorId: owner.org.userId })
    expect(keyEntry?.changes.label).toEqual({ before: null, after: 'audited' })
    expect(Object.keys(keyEntry?.changes ?? {})).not.toContain('keyHash')

    const SECRET = `s3cret-${randomUUID()}`
    const configured = await owner.core({
      method: 'POST',
      url: '/api/carriers/configure',
      payload: { carrierId: 2, accountReference: 'ACC-1', credentials: { apiKey: SECRET } },
    })
    expect(configured.statusCode, configured.body).toBe(200)
    const carrier = await owner.core({ url: AUDIT, query: { entityType: 'CarrierConfiguration' } })
    const [carrierEntry] = carrier.json().data as Entry[]
    expect(carrierEntry?.changes.accountReference).toEqual({ before: null, after: 'ACC-1' })
    expect(Object.keys(carrierEntry?.changes ?? {})).not.toContain('credentials')
    // Nothing in the whole log holds the key's value, its digest or the carrier's credentials.
    const schema = await schemaOf(ctx, owner.org.businessId)
    const { rows } = await sql<{ text: string }>`SELECT changes::text AS text FROM ${sql.table(
      `${schema}.audit_log`,
    )}`.execute(ctx.database.db)
    const everything = rows.map((r) => r.text).join('\n')
    expect(everything).not.toContain(SECRET)
    expect(everything).not.toContain(key)
    expect(everything).not.toMatch(/key_hash|credentials|password/)
  })

  it('audits a table that a later migration adds, with no work in its module', async () => {
    const owner = await ownerSession(ctx)
    const schema = await schemaOf(ctx, owner.org.businessId)
    const id = randomUUID()
    await ctx.database.db.transaction().execute(async (trx) => {
      await applyTenantMigrations(
        trx as unknown as Transaction<unknown>,
        schema,
        [
          {
            name: `29991231000000-create-supply-boxes-${id}`,
            sql: 'CREATE TABLE supply_boxes (id uuid PRIMARY KEY, business_id uuid NOT NULL, label text NOT NULL)',
          },
        ],
        MIGRATIONS.afterTenant,
      )
      await sql`INSERT INTO ${sql.table(`${schema}.supply_boxes`)} VALUES (${id}, ${owner.org.businessId}, 'Box')`.execute(
        trx,
      )
    })
    const [entry] = await entriesOf(owner.core, 'SupplyBox', id)
    expect(entry).toMatchObject({
      action: 'Created',
      actorType: 'System',
      changes: { label: { before: null, after: 'Box' } },
    })
  })

  it('leaves no entry for a change that was rolled back', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(owner.core, { name: 'Kept' })
    const schema = await schemaOf(ctx, owner.org.businessId)
    await expect(
      ctx.database.db.transaction().execute(async (trx) => {
        await trx
          .withSchema(schema)
          .updateTable('customers')
          .set({ name: 'Rolled back' })
          .where('id', '=', customer.id)
          .execute()
        throw new Error('abandon the change')
      }),
    ).rejects.toThrow('abandon the change')
    const entries = await entriesOf(owner.core, 'Customer', customer.id)
    expect(entries.map((e) => e.action)).toEqual(['Created'])
  })

  it('shows only the business’s own entries and answers 400, 401 and 403 as documented', async () => {
    const a = await ownerSession(ctx)
    const b = await ownerSession(ctx)
    const customer = await createCustomer(a.core)
    expect((await b.core({ url: AUDIT, query: { entityId: customer.id } })).json().totalCount).toBe(0)

    expect(
      (await ctx.core.inject({ url: AUDIT, headers: { 'x-business-id': a.org.businessId } })).statusCode,
    ).toBe(401)
    const noSettings = await createApiKey(ctx, a.signedIn.accessToken, a.org.businessId, {
      scopes: '{"Customers": 7}',
    })
    const refused = await coreAs(ctx, { apiKey: noSettings })({ url: AUDIT })
    expect(refused.statusCode).toBe(403)
    const settingsOnly = await createApiKey(ctx, a.signedIn.accessToken, a.org.businessId, {
      scopes: '{"Settings": 1}',
    })
    expect((await coreAs(ctx, { apiKey: settingsOnly })({ url: AUDIT })).statusCode).toBe(200)

    for (const [query, field] of [
      [{ actorId: 'not-a-uuid' }, 'actorId'],
      [{ from: 'yesterday' }, 'from'],
      [{ $filter: "changes eq 'x'" }, '$filter'],
      [{ PageSize: '500' }, 'PageSize'],
    ] as const) {
      const response = await a.core({ url: AUDIT, query })
      expect(response.statusCode, JSON.stringify(query)).toBe(400)
      expect(fieldsOf(response)).toContain(field)
    }
  })
})
