import { describe, expect, it } from 'vitest'
import { addMember } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { changeRole, ownerAndOrganization } from './team.fixtures.js'

const ctx = useTestContext()

const ownersOf = (organizationId: string) =>
  ctx.database.db
    .selectFrom('global.memberships')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'Owner')
    .execute()

describe('last owner under concurrency', () => {
  it('two owners demoting each other at once leave exactly one owner', async () => {
    for (let round = 0; round < 4; round++) {
      const { owner, businessId, organizationId } = await ownerAndOrganization(ctx)
      const second = await addMember(ctx, businessId, { role: 'Owner' })
      const results = await Promise.all([
        changeRole(owner.core, second.userId, { role: 'Admin' }),
        changeRole(second.core, owner.org.userId, { role: 'Admin' }),
      ])
      const statuses = results.map((r) => r.statusCode).sort()
      expect(statuses[0]).toBe(200)
      expect([403, 409]).toContain(statuses[1])
      const owners = await ownersOf(organizationId)
      expect(owners).toHaveLength(1)
    }
  })

  it('an owner removing the other while being demoted by them leaves exactly one owner', async () => {
    for (let round = 0; round < 4; round++) {
      const { owner, businessId, organizationId } = await ownerAndOrganization(ctx)
      const second = await addMember(ctx, businessId, { role: 'Owner' })
      const results = await Promise.all([
        owner.core({ method: 'DELETE', url: `/api/team/members/${second.userId}` }),
        changeRole(second.core, owner.org.userId, { role: 'Member' }),
      ])
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1)
      const owners = await ownersOf(organizationId)
      expect(owners).toHaveLength(1)
    }
  })
})
