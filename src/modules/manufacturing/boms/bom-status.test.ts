import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  businessSession,
  schemaOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { afterRowLockWait } from '../../../../test/row-lock.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { createProduct, ok } from '../manufacturing.fixtures.js'
import { type Bom, createBom, line } from './boms.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

async function twoDrafts(organisation = 'first') {
  const owner = await businessSession(ctx, await sharedOrganisation(ctx, organisation))
  const schema = await schemaOf(ctx, owner.org.businessId)
  const draftsOf = async () => {
    const [made, part] = await Promise.all([
      createProduct(owner.core, { type: 'FinishedGood' }),
      createProduct(owner.core),
    ])
    const a = await createBom(owner.core, { productId: made.id, lineItems: [line(part.id, 1)] })
    const b = await createBom(owner.core, { productId: made.id, lineItems: [line(part.id, 2)] })
    return { productId: made.id, a, b }
  }
  return { ...owner, schema, draftsOf }
}

/** The product's activation history, oldest first. */
async function periods(schema: string, productId: string) {
  const { rows } = await sql<{ bom_id: string; active_from: Date; active_to: Date | null }>`
    SELECT bom_id, active_from, active_to FROM ${sql.table(`${schema}.bom_activations`)}
    WHERE product_id = ${productId} ORDER BY active_from`.execute(ctx.database.db)
  return rows
}

describe('BOM activation of one product, in parallel', () => {
  it('of two Drafts activated at once, the later is Active, the earlier Archived, and the periods follow each other', async () => {
    const { core, schema, draftsOf } = await twoDrafts()
    for (let i = 0; i < 3; i++) {
      const { productId, a, b } = await draftsOf()
      const moves = await Promise.all(
        [a, b].map((bom) => core({ method: 'POST', url: `/api/v1/bom/${bom.id}/activate` })),
      )
      expect(moves.map((r) => r.statusCode)).toEqual([200, 200])
      const [first, second] = await Promise.all(
        [a, b].map((bom) => ok<Bom>(core, 'GET', `/api/v1/bom/${bom.id}`)),
      )
      const [earlier, later] =
        Date.parse(first!.activatedAt!) < Date.parse(second!.activatedAt!)
          ? [first!, second!]
          : [second!, first!]
      expect(earlier.status).toBe('Archived')
      expect(later.status).toBe('Active')
      const history = await periods(schema, productId)
      expect(history.map((p) => p.bom_id)).toEqual([earlier.id, later.id])
      expect(history[0]!.active_to).toEqual(history[1]!.active_from)
      expect(history[0]!.active_from.getTime()).toBeLessThan(history[1]!.active_from.getTime())
      expect(history[1]!.active_to).toBeNull()
    }
  })

  it('of two BOMs that would make a cycle together, activated at once, one becomes Active and the other is a 400 bom_cycle', async () => {
    const { core } = await twoDrafts()
    for (let i = 0; i < 3; i++) {
      const [x, y] = await Promise.all([
        createProduct(core, { type: 'Component' }),
        createProduct(core, { type: 'Component' }),
      ])
      const xBom = await createBom(core, { productId: x.id, lineItems: [line(y.id, 1)] })
      const yBom = await createBom(core, { productId: y.id, lineItems: [line(x.id, 1)] })
      const moves = await Promise.all(
        [xBom, yBom].map((bom) => core({ method: 'POST', url: `/api/v1/bom/${bom.id}/activate` })),
      )
      expect(moves.map((r) => r.statusCode).sort()).toEqual([200, 400])
      expect(moves.find((r) => r.statusCode === 400)!.json().code).toBe('bom_cycle')
    }
  })
})

describe.runIf(testDatabaseUrl())('BOM activation after a lock wait', () => {
  it('takes its instant when it holds its locks, not when its transaction began', async () => {
    const { core, schema, draftsOf } = await twoDrafts()
    const { productId, a, b } = await draftsOf()
    await ok(core, 'POST', `/api/v1/bom/${a.id}/activate`)
    const { result, releasedAt } = await afterRowLockWait(ctx, { schema, table: 'boms', id: b.id }, () =>
      ok<Bom>(core, 'POST', `/api/v1/bom/${b.id}/activate`),
    )
    expect(Date.parse(result.activatedAt!)).toBeGreaterThanOrEqual(releasedAt.getTime())
    const history = await periods(schema, productId)
    expect(history[0]!.active_to).toEqual(history[1]!.active_from)
    expect(history[1]!.active_from.getTime()).toBeGreaterThanOrEqual(releasedAt.getTime())
  })
})
