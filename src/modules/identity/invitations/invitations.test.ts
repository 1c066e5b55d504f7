import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addRole,
  fieldsOf,
  organizationIdOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import {
  type Core,
  coreAs,
  ownerSession,
  registerOrganization,
  signIn,
  uniqueEmail,
  useTestContext,
} from '../../../../test/harness.js'

const ctx = useTestContext()
// Each story invites its own addresses, so one organisation serves them; the two that list the
// organisation's members register their own.
useSharedOrganisation(ctx)

const NEW_PASSWORD = 'invited-user-passphrase'

const invite = (core: Core, payload: object) =>
  core({ method: 'POST', url: '/api/team/invitations', payload })
const complete = (businessId: string, payload: object, token?: string) =>
  ctx.global.inject({
    method: 'POST',
    url: `/api/auth/complete-invitation/${businessId}`,
    ...(token === undefined ? {} : { query: { token } }),
    payload,
  })
const login = (email: string, password: string) =>
  ctx.global.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })

/** The invitation link of the last email to `email` (the console's accept page): its business id and token. */
function invitationLink(email: string) {
  const message = ctx.mailer.lastTo(email)
  expect(message?.subject).toMatch(/^You are invited to /)
  const link = /https?:\/\/\S+/.exec(message?.text ?? '')?.[0] ?? ''
  const match =
    /^http:\/\/localhost:8080\/#\/accept-invitation\?business=([0-9a-f-]{36})&token=(cin_[\w-]+)$/.exec(link)
  expect(match).not.toBeNull()
  return { businessId: match?.[1] ?? '', token: match?.[2] ?? '' }
}

/** Invites a new person with `role`, lets them accept, and signs them in to the owner's organisation. */
async function invitedMember(owner: Awaited<ReturnType<typeof ownerSession>>, role: 'Admin' | 'Member') {
  const email = uniqueEmail(role.toLowerCase())
  expect((await invite(owner.core, { email, role })).statusCode).toBe(200)
  const { businessId, token } = invitationLink(email)
  expect((await complete(businessId, { email, password: NEW_PASSWORD }, token)).statusCode).toBe(200)
  const signedIn = await signIn(ctx, { email, password: NEW_PASSWORD })
  return { email, core: coreAs(ctx, { accessToken: signedIn.accessToken, businessId: owner.org.businessId }) }
}

describe('invitation end to end', () => {
  it('owner invites a new person, who accepts, signs in and sees the organisation with the role given', async () => {
    const owner = await sharedOrganisation(ctx)
    const email = uniqueEmail('invitee')
    const response = await invite(owner.core, {
      email,
      firstName: ' Katherine ',
      lastName: 'Johnson',
      role: 'admin',
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      statusCode: 'OK',
      data: {
        email,
        firstName: 'Katherine',
        lastName: 'Johnson',
        role: 'Admin',
        customRoleId: null,
        status: 'Invited',
      },
    })
    const userId = response.json().data.userId
    const { businessId, token } = invitationLink(email)
    expect(businessId).toBe(owner.org.businessId)

    // Invited, not yet a member: no password, no sign-in.
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(401)
    const row = await ctx.database.db
      .selectFrom('global.memberships')
      .select(['status', 'invited_by_user_id', 'role'])
      // While invited, the id the API shows is the membership's.
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'Invited', invited_by_user_id: owner.org.userId, role: 'Admin' })

    const accepted = await complete(
      businessId,
      { email: email.toUpperCase(), password: NEW_PASSWORD, acceptedTerms: true },
      token,
    )
    expect(accepted.statusCode).toBe(200)
    expect(accepted.json()).toEqual({ data: true, statusCode: 200, messages: [] })

    const signed = await login(email, NEW_PASSWORD)
    expect(signed.statusCode).toBe(200)
    const session = signed.json().data.session
    expect(session.organization.id).toBe(await organizationIdOf(ctx, owner.org.businessId))
    const me = await coreAs(ctx, { accessToken: session.accessToken, businessId })({ url: '/api/me' })
    expect(me.json().data).toMatchObject({
      role: 'Admin',
      isOwner: false,
      user: { email, emailVerified: true },
    })

    // The link works once.
    const again = await complete(businessId, { email, password: NEW_PASSWORD }, token)
    expect(again.statusCode).toBe(400)
    expect(fieldsOf(again)).toEqual(['token'])
  })

  it('an existing user confirms their own password, keeps it, and then chooses between two organisations', async () => {
    const owner = await ownerSession(ctx)
    const other = await registerOrganization(ctx)
    const response = await invite(owner.core, {
      email: other.email.toUpperCase(),
      firstName: 'Ignored',
      role: 'Member',
    })
    expect(response.statusCode).toBe(200)
    // Only what the inviter sent: the account's own names ("Ada Lovelace") stay private until it accepts.
    expect(response.json().data).toMatchObject({
      email: other.email.toUpperCase(),
      firstName: 'Ignored',
      lastName: '',
      role: 'Member',
      status: 'Invited',
    })
    const memberOf = async () =>
      ((await owner.core({ url: '/api/team/members?PageSize=50' })).json().data as { email: string }[]).find(
        (m) => m.email.toLowerCase() === other.email,
      )
    expect(response.json().data.userId).not.toBe(other.userId)
    expect(await memberOf()).toMatchObject({
      userId: response.json().data.userId,
      firstName: 'Ignored',
      lastName: '',
      emailVerified: false,
    })
    // Nor can a search or filter on the account's names find it (the owner here is an "Ada Lovelace" too).
    for (const query of ['$search=Lovelace', "$filter=lastName eq 'Lovelace'"]) {
      const found = (await owner.core({ url: `/api/team/members?${encodeURI(query)}` })).json().data as {
        email: string
      }[]
      expect(
        found.map((m) => m.email),
        query,
      ).not.toContain(other.email)
    }
    const { businessId, token } = invitationLink(other.email)

    // Still one active organisation until the invitation is accepted.
    expect((await login(other.email, other.password)).json().data.requiresOrganizationSelection).toBe(false)
    const wrong = await complete(businessId, { email: other.email, password: NEW_PASSWORD }, token)
    expect(wrong.statusCode).toBe(400)
    expect(fieldsOf(wrong)).toEqual(['password'])

    expect(
      (await complete(businessId, { email: other.email, password: other.password }, token)).statusCode,
    ).toBe(200)
    expect(await memberOf()).toMatchObject({
      userId: other.userId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      status: 'Active',
    })
    const signed = await login(other.email, other.password)
    expect(signed.statusCode).toBe(200)
    const data = signed.json().data
    expect(data.requiresOrganizationSelection).toBe(true)
    expect(data.organizations.map((o: { id: string }) => o.id).sort()).toEqual(
      [
        await organizationIdOf(ctx, owner.org.businessId),
        await organizationIdOf(ctx, other.businessId),
      ].sort(),
    )
  })

  it("shows an existing account exactly as it shows a new address until it accepts: what was sent, nothing of the account's", async () => {
    const owner = await ownerSession(ctx)
    const other = await registerOrganization(ctx)
    const fresh = uniqueEmail('fresh')
    const spell = (email: string) => email.replace(/^./, (c) => c.toUpperCase())
    const members = async () =>
      (await owner.core({ url: '/api/team/members?PageSize=50' })).json().data as Record<string, unknown>[]
    const sent = { firstName: 'Grace', lastName: 'Hopper', role: 'Member' }
    const shown = []
    for (const email of [spell(other.email), spell(fresh)]) {
      const response = await invite(owner.core, { ...sent, email })
      expect(response.statusCode).toBe(200)
      const data = response.json().data
      expect(data).toEqual({
        userId: expect.any(String),
        email,
        firstName: 'Grace',
        lastName: 'Hopper',
        role: 'Member',
        customRoleId: null,
        status: 'Invited',
      })
      const listed = (await members()).find((m) => m.userId === data.userId)
      expect(listed).toMatchObject({
        email,
        firstName: 'Grace',
        lastName: 'Hopper',
        displayName: 'Grace Hopper',
        status: 'Invited',
        emailVerified: false,
      })
      shown.push({ response: response.body, listed: JSON.stringify(listed) })
    }
    // Nothing of the existing account: not its id, not its names, not its spelling of the address.
    const [existing] = shown
    for (const text of [existing?.response, existing?.listed]) {
      expect(text).not.toContain(other.userId)
      expect(text).not.toMatch(/Ada|Lovelace/)
      expect(text).not.toContain(`"${other.email}"`)
    }
    // Found by the address the organisation sent, whatever the letter case.
    const found = await owner.core({ url: `/api/team/members?$search=${encodeURIComponent(other.email)}` })
    expect((found.json().data as { email: string }[]).map((m) => m.email)).toEqual([spell(other.email)])

    // Once accepted, the member is the account: its id, names and address.
    const { businessId, token } = invitationLink(other.email)
    expect(
      (await complete(businessId, { email: other.email, password: other.password }, token)).statusCode,
    ).toBe(200)
    expect((await members()).find((m) => m.userId === other.userId)).toMatchObject({
      email: other.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      status: 'Active',
      emailVerified: true,
    })
  })

  it('accepts the token in the body as well', async () => {
    const owner = await sharedOrganisation(ctx)
    const email = uniqueEmail('body')
    await invite(owner.core, { email, role: 'Member' })
    const { businessId, token } = invitationLink(email)
    expect((await complete(businessId, { email, password: NEW_PASSWORD, token })).statusCode).toBe(200)
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200)
  })

  it('re-inviting someone still invited sends a new link with the new role; the old link stops working', async () => {
    const owner = await sharedOrganisation(ctx)
    const email = uniqueEmail('twice')
    await invite(owner.core, { email, role: 'Member' })
    const first = invitationLink(email)
    const again = await invite(owner.core, { email, role: 'Admin' })
    expect(again.statusCode).toBe(200)
    expect(again.json().data).toMatchObject({ role: 'Admin', status: 'Invited' })
    const second = invitationLink(email)
    expect(second.token).not.toBe(first.token)
    expect(
      fieldsOf(await complete(first.businessId, { email, password: NEW_PASSWORD }, first.token)),
    ).toEqual(['token'])
    expect(
      (await complete(second.businessId, { email, password: NEW_PASSWORD }, second.token)).statusCode,
    ).toBe(200)
    const signed = await signIn(ctx, { email, password: NEW_PASSWORD })
    const me = await coreAs(ctx, { accessToken: signed.accessToken, businessId: owner.org.businessId })({
      url: '/api/me',
    })
    expect(me.json().data.role).toBe('Admin')
  })
})

describe('POST /api/auth/complete-invitation/{businessId} errors', () => {
  it('names the field: missing or wrong token, wrong email, weak password, refused terms', async () => {
    const owner = await sharedOrganisation(ctx)
    const email = uniqueEmail('errors')
    await invite(owner.core, { email, role: 'Member' })
    const { businessId, token } = invitationLink(email)
    const cases: [object, string | undefined, string][] = [
      [{ email, password: NEW_PASSWORD }, undefined, 'token'],
      [{ email, password: NEW_PASSWORD }, '', 'token'],
      [{ email, password: NEW_PASSWORD }, 'cin_wrong-token', 'token'],
      [{ email, password: NEW_PASSWORD }, `${token}x`, 'token'],
      [{ email: uniqueEmail('someone-else'), password: NEW_PASSWORD }, token, 'email'],
      [{ email, password: 'short' }, token, 'password'],
      [{ email, password: email }, token, 'password'],
      [{ email, password: NEW_PASSWORD, acceptedTerms: false }, token, 'acceptedTerms'],
    ]
    for (const [payload, query, field] of cases) {
      const response = await complete(businessId, payload, query)
      expect(response.statusCode, `${field} ${JSON.stringify(payload)}`).toBe(400)
      expect(response.headers['content-type']).toContain('application/problem+json')
      expect(fieldsOf(response)).toEqual([field])
    }
    // None of those used the invitation up.
    const row = await ctx.database.db
      .selectFrom('global.email_tokens')
      .select('used_at')
      .where('token_hash', '=', ctx.services.hasher.digest(token))
      .executeTakeFirstOrThrow()
    expect(row.used_at).toBeNull()
    expect((await complete(businessId, { email, password: NEW_PASSWORD }, token)).statusCode).toBe(200)
  })

  it('refuses a token whose invitation expired', async () => {
    const owner = await sharedOrganisation(ctx)
    const email = uniqueEmail('expired')
    await invite(owner.core, { email, role: 'Member' })
    const { businessId, token } = invitationLink(email)
    await ctx.database.db
      .updateTable('global.email_tokens')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('token_hash', '=', ctx.services.hasher.digest(token))
      .execute()
    expect(fieldsOf(await complete(businessId, { email, password: NEW_PASSWORD }, token))).toEqual(['token'])
  })

  it('validates the path and body shape', async () => {
    const response = await complete('not-a-uuid', {}, 'cin_x')
    expect(response.statusCode).toBe(400)
    expect(fieldsOf(response).sort()).toEqual(expect.arrayContaining(['businessId']))
    const body = await complete(randomUUID(), { email: 'nope' }, 'cin_x')
    expect(fieldsOf(body).sort()).toEqual(['email', 'password'])
  })
})

describe('POST /api/team/invitations errors', () => {
  it('refuses a Member (no TeamAndRoles Modify) with 403', async () => {
    const owner = await sharedOrganisation(ctx)
    const member = await invitedMember(owner, 'Member')
    const response = await invite(member.core, { email: uniqueEmail('x'), role: 'Member' })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toMatchObject({ code: 'permission_denied' })
  })

  it('lets an Admin invite, but only an owner may invite an Owner', async () => {
    const owner = await sharedOrganisation(ctx)
    const admin = await invitedMember(owner, 'Admin')
    expect((await invite(admin.core, { email: uniqueEmail('by-admin'), role: 'Admin' })).statusCode).toBe(200)
    const refused = await invite(admin.core, { email: uniqueEmail('owner'), role: 'Owner' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'owner_required' })
    const byOwner = await invite(owner.core, { email: uniqueEmail('co-owner'), role: 'Owner' })
    expect(byOwner.statusCode).toBe(200)
    expect(byOwner.json().data.role).toBe('Owner')
  })

  it('answers 409 already_member for an active member', async () => {
    const owner = await sharedOrganisation(ctx)
    const self = await invite(owner.core, { email: owner.org.email, role: 'Admin' })
    expect(self.statusCode).toBe(409)
    expect(self.json()).toMatchObject({ code: 'already_member' })
    const member = await invitedMember(owner, 'Member')
    expect((await invite(owner.core, { email: member.email.toUpperCase(), role: 'Admin' })).statusCode).toBe(
      409,
    )
  })

  it('checks role and customRoleId', async () => {
    const owner = await sharedOrganisation(ctx)
    const organizationId = await organizationIdOf(ctx, owner.org.businessId)
    const stranger = await registerOrganization(ctx)
    const ours = await addRole(ctx, organizationId, { Orders: 7 })
    const theirs = await addRole(ctx, await organizationIdOf(ctx, stranger.businessId), { Orders: 7 })
    const email = uniqueEmail('custom')
    const cases: [object, string][] = [
      [{ email, role: 'Custom' }, 'customRoleId'],
      [{ email, role: 'Custom', customRoleId: randomUUID() }, 'customRoleId'],
      [{ email, role: 'Custom', customRoleId: theirs }, 'customRoleId'],
      [{ email, role: 'Member', customRoleId: ours }, 'customRoleId'],
      [{ email, role: 'Boss' }, 'role'],
      [{ email: 'not-an-email', role: 'Member' }, 'email'],
    ]
    for (const [payload, field] of cases) {
      const response = await invite(owner.core, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json()).toMatchObject({ code: 'validation_failed' })
      expect(fieldsOf(response)).toEqual([field])
    }
    const ok = await invite(owner.core, { email, role: 3, customRoleId: ours })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().data).toMatchObject({ role: 'Custom', customRoleId: ours })
    const { businessId, token } = invitationLink(email)
    await complete(businessId, { email, password: NEW_PASSWORD }, token)
    const signed = await signIn(ctx, { email, password: NEW_PASSWORD })
    const me = await coreAs(ctx, { accessToken: signed.accessToken, businessId })({ url: '/api/me' })
    expect(me.json().data).toMatchObject({ role: 'Custom', customRole: { id: ours } })
    expect(me.json().data.permissions).toMatchObject({ Orders: 7, TeamAndRoles: 0 })
  })

  it('is published in the Core API document with its enums', async () => {
    const document = (await ctx.core.inject({ url: '/openapi.json' })).json()
    const operation = document.paths['/api/team/invitations'].post
    expect(operation.operationId).toBe('InviteTeamMember')
    // Records are published under components.schemas and referenced from operations.
    const named = (schema: { $ref?: string }) =>
      schema.$ref ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema
    const body = named(operation.requestBody.content['application/json'].schema)
    expect(body.properties.role.enum).toEqual(['Owner', 'Admin', 'Member', 'Custom'])
    const member = named(named(operation.responses['200'].content['application/json'].schema).properties.data)
    expect(member.properties.status.enum).toEqual(['Active', 'Invited'])
  })

  it('needs a credential', async () => {
    const response = await ctx.core.inject({
      method: 'POST',
      url: '/api/team/invitations',
      payload: { email: uniqueEmail(), role: 'Member' },
    })
    expect(response.statusCode).toBe(401)
  })
})
