import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import { registerOrganization, uniqueEmail, useTestContext } from '../../../../test/harness.js'

const ctx = useTestContext()

const verify = (query?: Record<string, string>) =>
  ctx.global.inject({ method: 'GET', url: '/api/auth/verify-by-token', ...(query ? { query } : {}) })

/** The link of the last verification email to `email` (the console's page), as the API path and query it calls. */
function verificationLink(email: string) {
  const message = ctx.mailer.lastTo(email)
  expect(message?.subject).toBe('Verify your email address')
  const link = /https?:\/\/\S+/.exec(message?.text ?? '')?.[0] ?? ''
  expect(link.startsWith('http://localhost:8080/#/verify-email?token=')).toBe(true)
  const token = new URLSearchParams(new URL(link).hash.replace(/^#\/verify-email\?/, '')).get('token') ?? ''
  return { path: `/api/auth/verify-by-token?token=${encodeURIComponent(token)}`, token }
}

const verifiedAt = async (userId: string) =>
  (
    await ctx.database.db
      .selectFrom('global.users')
      .select('email_verified_at')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  ).email_verified_at

const expectTokenRejected = (response: Awaited<ReturnType<typeof verify>>) => {
  expect(response.statusCode).toBe(400)
  expect(response.headers['content-type']).toContain('application/problem+json')
  expect(response.json()).toMatchObject({ status: 400, code: 'validation_failed' })
  expect(response.json().errors.map((e: { field: string }) => e.field)).toEqual(['token'])
}

describe('GET /api/auth/verify-by-token', () => {
  it('verifies the address from the registration email once, answering 200 with no body', async () => {
    const org = await registerOrganization(ctx)
    expect(await verifiedAt(org.userId)).toBeNull()
    const { path } = verificationLink(org.email)

    const first = await ctx.global.inject({ method: 'GET', url: path })
    expect(first.statusCode).toBe(200)
    expect(first.body).toBe('')
    expect(await verifiedAt(org.userId)).toBeInstanceOf(Date)

    expectTokenRejected(await ctx.global.inject({ method: 'GET', url: path }))
  })

  it('shows a browser a page saying verified, then that the link is no longer valid', async () => {
    const org = await registerOrganization(ctx)
    const { path } = verificationLink(org.email)
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
    const first = await ctx.global.inject({ method: 'GET', url: path, headers: { accept } })
    expect(first.statusCode).toBe(200)
    expect(first.headers['content-type']).toContain('text/html')
    expect(first.body).toContain('Email address verified')
    expect(await verifiedAt(org.userId)).toBeInstanceOf(Date)

    const again = await ctx.global.inject({ method: 'GET', url: path, headers: { accept } })
    expect(again.statusCode).toBe(400)
    expect(again.headers['content-type']).toContain('text/html')
    expect(again.body).toContain('no longer valid')
  })

  it('rejects a missing, unknown or expired token, naming token', async () => {
    expectTokenRejected(await verify())
    expectTokenRejected(await verify({ token: '' }))
    expectTokenRejected(await verify({ token: 'cev_not-a-real-token' }))

    const org = await registerOrganization(ctx)
    const { token } = verificationLink(org.email)
    await ctx.database.db
      .updateTable('global.email_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('token_hash', '=', ctx.services.hasher.digest(token))
      .execute()
    expectTokenRejected(await verify({ token }))
    expect(await verifiedAt(org.userId)).toBeNull()
  })

  it('does not accept a password-reset token as a verification token', async () => {
    const org = await registerOrganization(ctx)
    await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: org.email },
    })
    await vi.waitFor(() => expect(ctx.mailer.lastTo(org.email)?.subject).toBe('Reset your password'))
    const token = /token=([\w-]+)/.exec(ctx.mailer.lastTo(org.email)?.text ?? '')?.[1] ?? ''
    expectTokenRejected(await verify({ token }))
  })

  it('still registers when the verification email cannot be sent', async () => {
    const send = vi.spyOn(ctx.mailer, 'send').mockRejectedValueOnce(new Error('smtp down'))
    try {
      const email = uniqueEmail('nomail')
      const org = await registerOrganization(ctx, email)
      expect(org.userId).toMatch(/^[0-9a-f-]{36}$/)
      expect(ctx.mailer.lastTo(email)).toBeUndefined()
    } finally {
      send.mockRestore()
    }
  })
})
