import { sql, type Transaction } from 'kysely'
import { describe, expect, it } from 'vitest'
import { useTestContext } from '../../../../test/harness.js'
import { newId, shortId } from '../../../db/ids.js'
import { applyTenantMigrations } from '../../../db/migrator.js'
import {
  type ExactMovement,
  exactAverage,
  exactBalance,
  exactLedger,
  exactValue,
} from './stock-exact.fixtures.js'

const ctx = useTestContext()
const tenantMigrations = () => ctx.database.migrations.tenant
const MIGRATION = '20261127090000-exact-stock-valuation'
const minute = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 60_000)

describe(`migration ${MIGRATION}`, () => {
  it('recomputes existing ledgers exactly into checkpoints, and leaves products without entries alone', async () => {
    // A schema no organisation owns: migrate() never sees it; dropped at the end.
    const schema = `org_${shortId(8)}`
    const at = tenantMigrations().findIndex((m) => m.name === MIGRATION)
    expect(at).toBeGreaterThan(0)
    const db = ctx.database.db
    const apply = (migrations: ReturnType<typeof tenantMigrations>) =>
      db
        .transaction()
        .execute((trx) => applyTenantMigrations(trx as unknown as Transaction<unknown>, schema, migrations))
    const t = (name: string) => sql.table(`${schema}.${name}`)
    try {
      await apply(tenantMigrations().slice(0, at))
      const business = newId()
      const [big, small, none] = [newId(), newId(), newId()]
      await sql`INSERT INTO ${t('businesses')} (id, registered_name, display_name) VALUES (${business}, 'B', 'B')`.execute(
        db,
      )
      for (const [id, sku] of [
        [big, 'BIG'],
        [small, 'SMALL'],
        [none, 'NONE'],
      ] as const)
        await sql`INSERT INTO ${t('products')} (id, business_id, sku, name, type, on_hand, average_cost)
          VALUES (${id}, ${business}, ${sku}, ${sku}, 'RawMaterial', 7, 1.5)`.execute(db)
      // As the old ledger stored them: the average rounded to 6 places at each step, so 600
      // receipts of 1 at 10.4 after 1,000,000 at 10 left it at 10.
      const movements: ExactMovement[] = [
        { quantity: 1_000_000, unitCost: 10, effectiveDate: minute(0).toISOString() },
      ]
      for (let i = 1; i <= 600; i++) {
        movements.push({ quantity: 1, unitCost: 10.4, effectiveDate: minute(i).toISOString() })
        if (i % 50 === 0)
          movements.push({ quantity: -2.5, unitCost: null, effectiveDate: minute(i + 0.5).toISOString() })
      }
      let balance = 0
      for (const m of movements) {
        balance += m.quantity
        await sql`INSERT INTO ${t('stock_ledger')} (id, business_id, product_id, type, quantity, received_cost,
            unit_cost, effective_date, balance, average_cost)
          VALUES (${newId()}, ${business}, ${big}, ${m.unitCost === null ? 'Issue' : 'Receipt'}, ${m.quantity},
            ${m.unitCost}, ${m.unitCost ?? 10}, ${m.effectiveDate}, ${balance}, 10)`.execute(db)
      }
      await sql`INSERT INTO ${t('stock_ledger')} (id, business_id, product_id, type, quantity, received_cost,
          unit_cost, effective_date, balance, average_cost)
        VALUES (${newId()}, ${business}, ${small}, 'Receipt', 3, 2.5, 2.5, ${minute(0)}, 3, 2.5),
               (${newId()}, ${business}, ${small}, 'Receipt', 1, 4, 4, ${minute(1)}, 4, 3)`.execute(db)

      await apply(tenantMigrations().slice(at, at + 1))

      // Every entry's values, folded from the checkpoints the migration built (one per 64 entries).
      const { rows } = await sql<{
        balance: string
        average_cost: string
        stock_value: string
        unit_cost: string
      }>`
        SELECT v.balance, v.average_cost, v.stock_value, v.unit_cost
        FROM ${t('stock_entry_values')}(${big}::uuid, (SELECT array_agg(id) FROM ${t('stock_ledger')})) v
        JOIN ${t('stock_ledger')} l ON l.id = v.id ORDER BY l.effective_date, l.seq`.execute(db)
      const points = exactLedger(movements)
      expect(rows).toHaveLength(points.length)
      rows.forEach((row, i) => {
        const exact = points[i]!
        expect(Number(row.balance), `entry ${i}`).toBe(exactBalance(exact))
        expect(Math.abs(Number(row.average_cost) - exactAverage(exact)), `entry ${i}`).toBeLessThan(1e-9)
        expect(Math.abs(Number(row.stock_value) - exactValue(exact)), `entry ${i}`).toBeLessThan(0.005)
        if (movements[i]!.unitCost === null && i > 0)
          expect(Math.abs(Number(row.unit_cost) - exactAverage(points[i - 1]!)), `entry ${i}`).toBeLessThan(
            1e-9,
          )
      })
      const { rows: checkpoints } = await sql<{ product_id: string; n: number }>`
        SELECT product_id, count(*)::int AS n FROM ${t('stock_checkpoints')} GROUP BY product_id`.execute(db)
      // One every 64 entries and one after the last entry (613 is not a multiple of 64).
      expect(checkpoints.sort((x, y) => y.n - x.n)).toEqual([
        { product_id: big, n: Math.floor(points.length / 64) + 1 },
        { product_id: small, n: 1 },
      ])
      const last = points.at(-1)!
      expect(exactAverage(last)).toBeGreaterThan(10.0002)
      const { rows: products } = await sql<{ id: string; on_hand: string; average_cost: string }>`
        SELECT id, on_hand, average_cost FROM ${t('products')}`.execute(db)
      const byId = new Map(products.map((p) => [p.id, p]))
      expect(Number(byId.get(big)!.on_hand)).toBe(exactBalance(last))
      expect(Math.abs(Number(byId.get(big)!.average_cost) - exactAverage(last))).toBeLessThan(1e-9)
      expect(byId.get(small)).toMatchObject({ on_hand: '4.0000' })
      expect(Number(byId.get(small)!.average_cost)).toBe(2.875)
      expect(Number(byId.get(none)!.on_hand)).toBe(7)
    } finally {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db)
      await sql`DELETE FROM global.tenant_migrations WHERE schema_name = ${schema}`.execute(db)
    }
  })
})
