import { describe, expect, it } from 'vitest'
import {
  addMember,
  addRole,
  addUser,
  organizationIdOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../../../test/harness.js'

const ctx = useTestContext()
// A story that reads a whole team back registers its own (team()); the others share one.
useSharedOrganisation(ctx)

type Member = { userId: string; email: string; role: string; status: string; lastName: string }
const emails = (response: { json(): { data: Member[] } }) => response.json().data.map((m) => m.email)

/** An owner (Ada Lovelace), an admin, a custom-role member, an invited member and an unverified member. */
async function team() {
  const owner = await ownerSession(ctx)
  const organizationId = await organizationIdOf(ctx, owner.org.businessId)
  const roleId = await addRole(ctx, organizationId, { Orders: 7 })
  const admin = await addUser(ctx, owner.org.businessId, {
    role: 'Admin',
    firstName: 'Alan',
    lastName: 'Turing',
  })
  const custom = await addUser(ctx, owner.org.businessId, {
    role: 'Custom',
    customRoleId: roleId,
    firstName: 'Edsger',
    lastName: 'Dijkstra',
  })
  const invited = await addUser(ctx, owner.org.businessId, {
    status: 'Invited',
    firstName: '',
    lastName: '',
    email: `Invitee-50%-${organizationId.slice(0, 6)}@example.com`,
  })
  const unverified = await addUser(ctx, owner.org.businessId, { verified: false, lastName: 'Liskov' })
  return { owner, organizationId, roleId, admin, custom, invited, unverified }
}

describe('GET /api/team/members', () => {
  it('lists every membership of the organisation with role, custom role, status and verification', async () => {
    const t = await team()
    const response = await t.owner.core({ url: '/api/team/members' })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body).toMatchObject({
      statusCode: 'OK',
      totalCount: 5,
      count: 5,
      page: 1,
      finalPage: 1,
      hasMore: false,
    })
    const byId = new Map(body.data.map((m: Member) => [m.userId, m]))
    expect(byId.get(t.owner.org.userId)).toEqual({
      userId: t.owner.org.userId,
      email: t.owner.org.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      displayName: 'Ada Lovelace',
      role: 'Owner',
      customRole: null,
      status: 'Active',
      emailVerified: false,
      dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    expect(byId.get(t.custom.userId)).toMatchObject({
      role: 'Custom',
      customRole: { id: t.roleId, name: expect.stringMatching(/^Role /) },
      emailVerified: true,
    })
    // A user who has not set a name yet is shown by email.
    // While invited: shown by the membership's id, by email (the inviter gave no name here).
    const invited = body.data.find((m: Member) => m.email === t.invited.email)
    expect(invited).toMatchObject({ status: 'Invited', displayName: t.invited.email })
    expect(invited.userId).not.toBe(t.invited.userId)
    expect(byId.get(t.unverified.userId)).toMatchObject({ emailVerified: false })
  })

  it('shows nothing of another organisation', async () => {
    const t = await team()
    const other = await ownerSession(ctx)
    const response = await other.core({ url: '/api/team/members' })
    expect(response.json().totalCount).toBe(1)
    expect(emails(response)).toEqual([other.org.email])
    expect(emails(response)).not.toContain(t.owner.org.email)
  })

  it('pages in SQL: totalCount covers all pages, pages beyond the data are empty', async () => {
    const t = await team()
    const page = (n: number) =>
      t.owner.core({ url: `/api/team/members?Page=${n}&PageSize=2&$orderby=dateCreated` })
    const first = (await page(1)).json()
    expect(first).toMatchObject({ count: 2, totalCount: 5, finalPage: 3, hasMore: true, pageSize: 2 })
    const third = (await page(3)).json()
    expect(third).toMatchObject({ count: 1, page: 3, hasMore: false })
    expect(first.data[0].userId).toBe(t.owner.org.userId)
    expect((await page(4)).json()).toMatchObject({ count: 0, totalCount: 5, data: [] })
    const all = [...first.data, ...(await page(2)).json().data, ...third.data].map((m: Member) => m.userId)
    expect(new Set(all).size).toBe(5)
  })

  it('filters and orders on email, firstName, lastName, role, status and dateCreated', async () => {
    const t = await team()
    const list = (query: string) => t.owner.core({ url: `/api/team/members?${query}` })
    expect(emails(await list("$filter=role eq 'admin'"))).toEqual([t.admin.email])
    expect(emails(await list('$filter=status eq 1'))).toEqual([t.invited.email])
    expect(
      emails(await list("$filter=lastName eq 'Turing' or firstName eq 'Edsger'&$orderby=lastName")),
    ).toEqual([t.custom.email, t.admin.email])
    expect(emails(await list(`$filter=email eq '${t.admin.email}'`))).toEqual([t.admin.email])
    expect(
      (await list('$filter=dateCreated ge 2000-01-01 and dateCreated lt 2000-01-02')).json().totalCount,
    ).toBe(0)
    const byLastNameDesc = (await list('$orderby=lastName desc,email'))
      .json()
      .data.map((m: Member) => m.lastName)
    expect(byLastNameDesc).toEqual(['Turing', 'Lovelace', 'Liskov', 'Dijkstra', ''])
    const roles = (await list('$orderby=role')).json().data.map((m: Member) => m.role)
    expect(roles).toEqual([...roles].sort())
  })

  it('searches name and email case-insensitively, matching wildcards literally', async () => {
    const t = await team()
    const search = (text: string) =>
      t.owner.core({ url: `/api/team/members?$search=${encodeURIComponent(text)}` })
    expect(emails(await search('TURING'))).toEqual([t.admin.email])
    expect(emails(await search('alan tur'))).toEqual([t.admin.email])
    expect(emails(await search('invitee-50%'))).toEqual([t.invited.email])
    expect((await search('_')).json().totalCount).toBe(0)
    const combined = await t.owner.core({
      url: "/api/team/members?$search=example.com&$filter=role eq 'Custom'",
    })
    expect(emails(combined)).toEqual([t.custom.email])
  })

  it('names the parameter in a 400 for an unknown field or bad paging', async () => {
    const { core } = await sharedOrganisation(ctx)
    for (const [query, field] of [
      ["$filter=password eq 'x'", '$filter'],
      ["$filter=role eq 'Boss'", '$filter'],
      ['$orderby=customRole', '$orderby'],
      ['PageSize=101', 'PageSize'],
      ['Page=0', 'Page'],
    ]) {
      const response = await core({ url: `/api/team/members?${query}` })
      expect(response.statusCode, query).toBe(400)
      expect(response.json().reasons[0].field, query).toBe(field)
    }
  })

  it('needs a credential, and TeamAndRoles View (a view-only Member may list)', async () => {
    const { org } = await sharedOrganisation(ctx)
    const unauthenticated = await ctx.core.inject({ url: '/api/team/members' })
    expect(unauthenticated.statusCode).toBe(401)
    const member = await addMember(ctx, org.businessId)
    expect((await member.core({ url: '/api/team/members' })).statusCode).toBe(200)
    const organizationId = await organizationIdOf(ctx, org.businessId)
    const noTeam = await addMember(ctx, org.businessId, {
      role: 'Custom',
      customRoleId: await addRole(ctx, organizationId, { Orders: 7 }),
    })
    const refused = await noTeam.core({ url: '/api/team/members' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('permission_denied')
  })
})
