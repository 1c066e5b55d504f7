import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownerSession, startTestContext, type TestContext } from '../../../test/harness.js'
import { addMember, organizationIdOf } from './team.fixtures.js'

let ctx: TestContext
beforeAll(async () => {
  ctx = await startTestContext()
})
afterAll(() => ctx.close())

type Inject = Awaited<ReturnType<typeof ownerSession>>['core']
const changeRole = (core: Inject, userId: string, payload: Record<string, unknown>) =>
  core({ method: 'PUT', url: `/api/team/members/${userId}/role`, payload })

async function organization() {
  const owner = await ownerSession(ctx)
  const organizationId = await organizationIdOf(ctx, owner.org.businessId)
  return { owner, organizationId, businessId: owner.org.businessId }
}

describe('last owner under concurrency', () => {
  it('two owners demoting each other at once leave exactly one owner', async () => {
    for (let round = 0; round < 4; round++) {
      const { owner, businessId, organizationId } = await organization()
      const second = await addMember(ctx, businessId, { role: 'Owner' })
      const results = await Promise.all([
        changeRole(owner.core, second.userId, { role: 'Admin' }),
        changeRole(second.core, owner.org.userId, { role: 'Admin' }),
      ])
      const statuses = results.map((r) => r.statusCode).sort()
      expect(statuses[0]).toBe(200)
      expect([403, 409]).toContain(statuses[1])
      const owners = await ctx.database.db
        .selectFrom('global.memberships')
        .select('user_id')
        .where('organization_id', '=', organizationId)
        .where('role', '=', 'Owner')
        .execute()
      expect(owners).toHaveLength(1)
    }
  })

  it('an owner removing the other while being demoted by them leaves exactly one owner', async () => {
    for (let round = 0; round < 4; round++) {
      const { owner, businessId, organizationId } = await organization()
      const second = await addMember(ctx, businessId, { role: 'Owner' })
      const results = await Promise.all([
        owner.core({ method: 'DELETE', url: `/api/team/members/${second.userId}` }),
        changeRole(second.core, owner.org.userId, { role: 'Member' }),
      ])
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1)
      const owners = await ctx.database.db
        .selectFrom('global.memberships')
        .select('user_id')
        .where('organization_id', '=', organizationId)
        .where('role', '=', 'Owner')
        .execute()
      expect(owners).toHaveLength(1)
    }
  })
})
