import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { registrationBody, startTestContext, uniqueEmail, useTestContext } from '../../../../test/harness.js'

const ctx = useTestContext()

const register = (payload: unknown) =>
  ctx.global.inject({ method: 'POST', url: '/api/organizations', payload: payload as object })

describe('POST /api/organizations', () => {
  it('creates the organisation, business, owner and schema, and answers RegisterOrganizationBusinessResponse', async () => {
    const body = registrationBody()
    const response = await register(body)
    expect(response.statusCode).toBe(200)
    const result = response.json()
    expect(result.statusCode).toBe(200)
    expect(result.messages).toEqual([])
    expect(result.data).toMatchObject({
      registeredName: body.business.registeredName,
      displayName: 'Test Org',
      registrationNumber: '2026/000001/07',
      email: 'ops@example.com',
      requiresDispatchBuilder: true,
      requiresOrderIntegration: false,
      billingAddress: { city: 'Cape Town', country: 'ZA', latitude: -33.92, street: null },
      currentUser: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        displayName: 'Ada Lovelace',
        email: body.user.email,
      },
    })
    expect(result.data.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(result.data.billingAddress.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(JSON.stringify(result)).not.toContain(body.user.password)

    const db = ctx.database.db
    const user = await db
      .selectFrom('global.users')
      .selectAll()
      .where('id', '=', result.data.currentUser.id)
      .executeTakeFirstOrThrow()
    expect(user.password_hash).toMatch(/^\$argon2id\$/)
    const index = await db
      .selectFrom('global.businesses')
      .selectAll()
      .where('id', '=', result.data.id)
      .executeTakeFirstOrThrow()
    const org = await db
      .selectFrom('global.organizations')
      .selectAll()
      .where('id', '=', index.organization_id)
      .executeTakeFirstOrThrow()
    expect(org.schema_name).toMatch(/^org_[a-z2-7]{13}$/)
    const membership = await db
      .selectFrom('global.memberships')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(membership).toMatchObject({ organization_id: org.id, role: 'Owner', status: 'Active' })
    const business = await db
      .withSchema(org.schema_name)
      .selectFrom('businesses')
      .selectAll()
      .executeTakeFirstOrThrow()
    expect(business).toMatchObject({ id: result.data.id, registered_name: body.business.registeredName })
  })

  it('rejects a second registration with the same email in any letter case with 409 problem details', async () => {
    const email = uniqueEmail('dup')
    expect((await register(registrationBody({ email }))).statusCode).toBe(200)
    const again = await register(registrationBody({ email: email.toUpperCase() }))
    expect(again.statusCode).toBe(409)
    expect(again.headers['content-type']).toContain('application/problem+json')
    expect(again.json()).toMatchObject({ status: 409, code: 'email_taken', title: 'Conflict' })
  })

  it('lets exactly one of two simultaneous registrations with one email through, leaving nothing half-created', async () => {
    const email = uniqueEmail('race')
    const results = await Promise.all([
      register(registrationBody({ email })),
      register(registrationBody({ email })),
    ])
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409])
    // Counted for this email only: other test files register organisations concurrently.
    expect(await countOrganizationsOf(email)).toBe(1)
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_namespace n
      WHERE n.nspname ~ '^org_[a-z0-9]+$' AND NOT EXISTS (SELECT 1 FROM global.organizations o WHERE o.schema_name = n.nspname)`.execute(
      ctx.database.db,
    )
    expect(rows[0]?.n).toBe(0)
  })

  it('lets two simultaneous registrations of one new business name through with different emails', async () => {
    // Both see the name's slug free and race for it: the loser gets another slug, not "email taken".
    const displayName = `Twin ${uniqueEmail('n').slice(2, 8)}`
    const body = () => {
      const b = registrationBody({ email: uniqueEmail('twin') })
      return { ...b, business: { ...b.business, displayName } }
    }
    const results = await Promise.all([register(body()), register(body())])
    expect(results.map((r) => r.statusCode)).toEqual([200, 200])
  })

  it('names every field over its length limit, and a malformed email', async () => {
    const body = registrationBody()
    const response = await register({
      ...body,
      business: {
        ...body.business,
        registeredName: 'x'.repeat(101),
        displayName: 'y'.repeat(51),
        website: 'w'.repeat(101),
        registrationNumber: 'r'.repeat(31),
      },
      user: { ...body.user, email: 'not-an-email' },
    })
    expect(response.statusCode).toBe(400)
    const fields = response
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort()
    expect(fields).toEqual([
      'business.displayName',
      'business.registeredName',
      'business.registrationNumber',
      'business.website',
      'user.email',
    ])
  })

  it('applies the password policy, confirmation and terms', async () => {
    const body = registrationBody()
    const response = await register({
      ...body,
      user: { ...body.user, password: 'short', confirmPassword: 'different', acceptedTerms: false },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual([
      { field: 'user.password', message: 'must be at least 8 characters' },
      { field: 'user.confirmPassword', message: 'must equal password' },
      { field: 'user.acceptedTerms', message: 'the terms must be accepted' },
    ])
    const sameAsEmail = registrationBody()
    sameAsEmail.user.password = sameAsEmail.user.email
    sameAsEmail.user.confirmPassword = sameAsEmail.user.email
    const second = await register(sameAsEmail)
    expect(second.json().errors).toEqual([
      { field: 'user.password', message: 'must not be the email address' },
    ])
  })

  it('requires business and user', async () => {
    const response = await register({})
    expect(response.statusCode).toBe(400)
    expect(
      response
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['business', 'user'])
  })
})

describe('GET /api/organizations/soft-check', () => {
  it('tells whether a user with the email exists, ignoring letter case', async () => {
    const email = uniqueEmail('soft')
    const check = async (value: string) =>
      (
        await ctx.global.inject({
          method: 'GET',
          url: '/api/organizations/soft-check',
          query: { emailAddress: value },
        })
      ).json()
    expect(await check(email)).toEqual({ data: false, statusCode: 200, messages: [] })
    await register(registrationBody({ email }))
    expect((await check(email.toUpperCase())).data).toBe(true)
    expect(
      (await ctx.global.inject({ method: 'GET', url: '/api/organizations/soft-check' })).json().data,
    ).toBe(false)
  })
})

async function countOrganizationsOf(email: string) {
  const row = await ctx.database.db
    .selectFrom('global.memberships as m')
    .innerJoin('global.users as u', 'u.id', 'm.user_id')
    .where(sql<boolean>`lower(u.email) = lower(${email})`)
    .select((eb) => eb.fn.count<number>('m.organization_id').distinct().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

describe('rate limits', () => {
  it('answers registration and soft-check floods from one IP with 429 and Retry-After, counting bad requests too', async () => {
    const limited = await startTestContext({ RATE_LIMIT_PER_IP: '2' })
    try {
      const ip = '203.0.113.7'
      const softCheck = () =>
        limited.global.inject({
          method: 'GET',
          url: '/api/organizations/soft-check?emailAddress=a@example.com',
          remoteAddress: ip,
        })
      expect((await softCheck()).statusCode).toBe(200)
      expect((await softCheck()).statusCode).toBe(200)
      const blocked = await softCheck()
      expect(blocked.statusCode).toBe(429)
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
      expect(blocked.json()).toMatchObject({ status: 429, code: 'rate_limited' })
      // Another address has its own budget.
      const other = await limited.global.inject({
        method: 'GET',
        url: '/api/organizations/soft-check',
        remoteAddress: '203.0.113.8',
      })
      expect(other.statusCode).toBe(200)

      const registerFrom = (payload: object) =>
        limited.global.inject({ method: 'POST', url: '/api/organizations', payload, remoteAddress: ip })
      expect((await registerFrom({})).statusCode).toBe(400)
      expect((await registerFrom(registrationBody())).statusCode).toBe(200)
      expect((await registerFrom(registrationBody())).statusCode).toBe(429)
    } finally {
      await limited.close()
    }
  })
})

describe('a flood from many addresses', () => {
  it('holds the instance to its registrations and outgoing mails an hour, whatever the addresses', async () => {
    const limited = await startTestContext({
      TRUST_PROXY: '1',
      REGISTRATIONS_PER_HOUR: '2',
      MAILS_PER_HOUR: '1',
    })
    try {
      const registerFrom = (client: string) =>
        limited.global.inject({
          method: 'POST',
          url: '/api/organizations',
          payload: registrationBody(),
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': client },
        })
      expect((await registerFrom('198.51.100.1')).statusCode).toBe(200)
      expect((await registerFrom('198.51.100.2')).statusCode).toBe(200)
      const refused = await registerFrom('198.51.100.3')
      expect(refused.statusCode).toBe(429)
      expect(refused.json()).toMatchObject({ status: 429, code: 'rate_limited' })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      // Two registrations, one verification mail: the second was over the instance's budget.
      expect(limited.mailer.sent).toHaveLength(1)
    } finally {
      await limited.close()
    }
  })
})

describe('behind a proxy', () => {
  it('keys rate limits on the forwarded client address only when TRUST_PROXY says so', async () => {
    const proxied = await startTestContext({ RATE_LIMIT_PER_IP: '1', TRUST_PROXY: '1' })
    try {
      const from = (client: string) =>
        proxied.global.inject({
          url: '/api/organizations/soft-check',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': client },
        })
      expect((await from('198.51.100.1')).statusCode).toBe(200)
      expect((await from('198.51.100.2')).statusCode).toBe(200)
      expect((await from('198.51.100.1')).statusCode).toBe(429)
    } finally {
      await proxied.close()
    }
    const direct = await startTestContext({ RATE_LIMIT_PER_IP: '1' })
    try {
      const from = (client: string) =>
        direct.global.inject({
          url: '/api/organizations/soft-check',
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-for': client },
        })
      expect((await from('198.51.100.1')).statusCode).toBe(200)
      // Without trust, a forged header cannot buy a fresh budget.
      expect((await from('198.51.100.2')).statusCode).toBe(429)
    } finally {
      await direct.close()
    }
  })
})
