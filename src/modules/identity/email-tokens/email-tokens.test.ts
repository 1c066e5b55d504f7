import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { registerOrganization, useTestContext } from '../../../../test/harness.js'
import { consumeEmailToken, createEmailToken, findUsableEmailToken } from './email-tokens.service.js'

const ctx = useTestContext()

const db = () => ctx.database.db
const hasher = () => ctx.services.hasher

describe('email tokens', () => {
  it('stores only a digest of the secret and is used up exactly once', async () => {
    const { userId } = await registerOrganization(ctx)
    const secret = await createEmailToken(db(), hasher(), { userId, purpose: 'reset_password' })
    expect(secret).toMatch(/^crp_[\w-]{43}$/)
    const rows = await db()
      .selectFrom('global.email_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .execute()
    const stored = rows.find((r) => r.purpose === 'reset_password')
    expect(stored?.token_hash.equals(hasher().digest(secret))).toBe(true)
    expect(JSON.stringify(rows)).not.toContain(secret.slice(4))
    const ttl = (stored?.expires_at.getTime() ?? 0) - Date.now()
    expect(ttl).toBeGreaterThan(29 * 60_000)
    expect(ttl).toBeLessThanOrEqual(30 * 60_000 + 5_000)

    expect(await findUsableEmailToken(db(), hasher(), secret, 'reset_password')).toMatchObject({
      user_id: userId,
    })
    expect(await consumeEmailToken(db(), hasher(), secret, 'reset_password')).toEqual({
      user_id: userId,
      organization_id: null,
    })
    expect(await consumeEmailToken(db(), hasher(), secret, 'reset_password')).toBeUndefined()
    expect(await findUsableEmailToken(db(), hasher(), secret, 'reset_password')).toBeUndefined()
  })

  it('refuses a token of another purpose, an unknown one and an expired one', async () => {
    const { userId } = await registerOrganization(ctx)
    const secret = await createEmailToken(db(), hasher(), { userId, purpose: 'verify_email' })
    expect(await consumeEmailToken(db(), hasher(), secret, 'reset_password')).toBeUndefined()
    expect(await consumeEmailToken(db(), hasher(), `${secret}x`, 'verify_email')).toBeUndefined()
    await db()
      .updateTable('global.email_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('token_hash', '=', hasher().digest(secret))
      .execute()
    expect(await consumeEmailToken(db(), hasher(), secret, 'verify_email')).toBeUndefined()
  })

  it('lets exactly one of many parallel consumptions of one token succeed', async () => {
    const { userId } = await registerOrganization(ctx)
    const secret = await createEmailToken(db(), hasher(), { userId, purpose: 'reset_password' })
    const results = await Promise.all(
      Array.from({ length: 8 }, () => consumeEmailToken(db(), hasher(), secret, 'reset_password')),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
  })
})
