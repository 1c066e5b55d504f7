import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  addMembership,
  addUser,
  organizationIdOf,
  PAST_STATE_TTL,
  sharedOrganisation,
  sleep,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { type Core, coreAs, ownerSession, PASSWORD, useTestContext } from '../../../../test/harness.js'

const ctx = useTestContext()
// Stories that do not read the whole member list back share one organisation (and a second one).
useSharedOrganisation(ctx)

const remove = (core: Core, userId: string) => core({ method: 'DELETE', url: `/api/team/members/${userId}` })
const memberIds = async (core: Core) =>
  (await core({ url: '/api/team/members' })).json().data.map((m: { userId: string }) => m.userId)

describe('DELETE /api/team/members/{userId}', () => {
  it("removes the membership and refuses the member's access and refresh tokens within a second", async () => {
    const owner = await ownerSession(ctx)
    const member = await addMember(ctx, owner.org.businessId, { role: 'Admin' })
    expect((await member.core({ url: '/api/me' })).statusCode).toBe(200)
    const response = await remove(owner.core, member.userId)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ data: true, statusCode: 'OK' })
    expect(await memberIds(owner.core)).toEqual([owner.org.userId])
    await sleep(PAST_STATE_TTL)
    const refused = await member.core({ url: '/api/me' })
    expect(refused.statusCode).toBe(401)
    expect(refused.json().code).toBe('session_ended')
    const renew = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/new-token',
      headers: { cookie: member.signedIn.refreshCookie },
    })
    expect(renew.statusCode).toBe(401)
    const sessions = await ctx.database.db
      .selectFrom('global.sessions')
      .select(['revoked_at', 'revoked_reason'])
      .where('user_id', '=', member.userId)
      .execute()
    expect(sessions.length).toBeGreaterThan(0)
    expect(sessions.every((s) => s.revoked_at !== null && s.revoked_reason === 'membership_removed')).toBe(
      true,
    )
    // The user still exists (they may belong elsewhere); only this membership is gone.
    const user = await ctx.database.db
      .selectFrom('global.users')
      .select('id')
      .where('id', '=', member.userId)
      .executeTakeFirst()
    expect(user).toBeDefined()
  })

  it('leaves the removed user signed in to their other organisations', async () => {
    const first = await sharedOrganisation(ctx)
    const second = await sharedOrganisation(ctx, 'second')
    const member = await addMember(ctx, first.org.businessId)
    const secondOrganizationId = await organizationIdOf(ctx, second.org.businessId)
    await addMembership(ctx, secondOrganizationId, member.userId)
    const login = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: member.email, password: PASSWORD },
    })
    const selected = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/select-organization',
      headers: { authorization: `Bearer ${login.json().data.selectionToken}` },
      payload: { organizationId: secondOrganizationId },
    })
    const elsewhere = coreAs(ctx, {
      accessToken: selected.json().data.accessToken,
      businessId: second.org.businessId,
    })
    expect((await remove(first.core, member.userId)).statusCode).toBe(200)
    await sleep(PAST_STATE_TTL)
    expect((await member.core({ url: '/api/me' })).statusCode).toBe(401)
    const me = await elsewhere({ url: '/api/me' })
    expect(me.statusCode).toBe(200)
    expect(me.json().data.organization.id).toBe(secondOrganizationId)
  })

  it('revokes the API keys the member created in this organisation', async () => {
    const owner = await sharedOrganisation(ctx)
    const member = await addMember(ctx, owner.org.businessId, { role: 'Owner' })
    const key = `test_${randomUUID()}`
    await ctx.database.db
      .insertInto('global.api_keys')
      .values({
        id: randomUUID(),
        organization_id: member.organizationId,
        business_id: owner.org.businessId,
        created_by_user_id: member.userId,
        key_hash: ctx.services.hasher.digest(key),
        key_prefix: key.slice(0, 8),
      })
      .execute()
    const withKey = coreAs(ctx, { apiKey: key })
    expect((await withKey({ url: '/api/team/members' })).statusCode).toBe(200)
    expect((await remove(owner.core, member.userId)).statusCode).toBe(200)
    expect((await withKey({ url: '/api/team/members' })).statusCode).toBe(401)
    const stored = await ctx.database.db
      .selectFrom('global.api_keys')
      .select('revoked_at')
      .where('created_by_user_id', '=', member.userId)
      .executeTakeFirstOrThrow()
    expect(stored.revoked_at).not.toBeNull()
  })

  it('removes an invited membership', async () => {
    const owner = await ownerSession(ctx)
    const invited = await addUser(ctx, owner.org.businessId, { status: 'Invited', role: 'Owner' })
    // The account's own id is not how the organisation knows an invitation: that is a 404.
    expect((await remove(owner.core, invited.userId)).statusCode).toBe(404)
    const shown = (await owner.core({ url: '/api/team/members' }))
      .json()
      .data.find((m: { email: string }) => m.email === invited.email)
    expect((await remove(owner.core, shown.userId)).statusCode).toBe(200)
    expect(await memberIds(owner.core)).toEqual([owner.org.userId])
  })

  it('never removes the last active owner; an owner may leave once another owner exists', async () => {
    const owner = await ownerSession(ctx)
    const refused = await remove(owner.core, owner.org.userId)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('last_owner')
    await addUser(ctx, owner.org.businessId, { role: 'Owner' })
    expect((await remove(owner.core, owner.org.userId)).statusCode).toBe(200)
    await sleep(PAST_STATE_TTL)
    expect((await owner.core({ url: '/api/me' })).statusCode).toBe(401)
  })

  it('lets only an owner remove an owner; anyone with the right may remove others or themselves', async () => {
    const owner = await ownerSession(ctx)
    const admin = await addMember(ctx, owner.org.businessId, { role: 'Admin' })
    const member = await addUser(ctx, owner.org.businessId)
    const refused = await remove(admin.core, owner.org.userId)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('owner_required')
    expect((await remove(admin.core, member.userId)).statusCode).toBe(200)
    expect((await remove(admin.core, admin.userId)).statusCode).toBe(200)
    expect(await memberIds(owner.core)).toEqual([owner.org.userId])
  })

  it('refuses a view-only Member (403)', async () => {
    const owner = await sharedOrganisation(ctx)
    const member = await addMember(ctx, owner.org.businessId)
    const other = await addUser(ctx, owner.org.businessId)
    const response = await remove(member.core, other.userId)
    expect(response.statusCode).toBe(403)
    expect(response.json().code).toBe('permission_denied')
  })

  it('answers 404 for an unknown user or one of another organisation, and 400 for a bad id', async () => {
    const owner = await sharedOrganisation(ctx)
    const other = await ownerSession(ctx)
    const stranger = await addUser(ctx, other.org.businessId)
    for (const userId of [randomUUID(), stranger.userId, other.org.userId]) {
      const response = await remove(owner.core, userId)
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('member_not_found')
    }
    expect(await memberIds(other.core)).toHaveLength(2)
    const bad = await remove(owner.core, 'x')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().reasons[0].field).toBe('userId')
  })
})
