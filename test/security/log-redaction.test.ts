import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createLogger, REDACTED, redactUrl } from '../../src/http/logging.js'
import {
  ownerSession,
  registerOrganization,
  startTestContext,
  type TestContext,
  uniqueEmail,
} from '../harness.js'

/** Every line the apps log, kept in memory so a test can scan it. */
class MemoryLog extends Writable {
  text = ''
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString()
    done()
  }
  /** What was logged since `mark` (a previous `text.length`). */
  since(mark: number) {
    return this.text.slice(mark)
  }
}

const log = new MemoryLog()
const ctx = {} as TestContext
beforeAll(async () => {
  Object.assign(ctx, await startTestContext({}, { logger: createLogger('info', log) }))
})
afterAll(async () => ctx.close())

/** Runs `request`, then asserts the log lines it produced name the request but not one of `secrets`. */
async function expectLoggedWithout(request: () => Promise<unknown>, secrets: string[]) {
  const mark = log.text.length
  await request()
  const written = log.since(mark)
  expect(written).toContain('request completed')
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(5)
    expect(written).not.toContain(secret)
    expect(written).not.toContain(encodeURIComponent(secret))
  }
  return written
}

describe('request logs carry no secrets', () => {
  it('redacts the invitation token and the email verification token from logged URLs', async () => {
    const owner = await ownerSession(ctx)
    const email = uniqueEmail('invitee')
    await owner.core({ method: 'POST', url: '/api/team/invitations', payload: { email, role: 'Member' } })
    const invitation = /token=(cin_[\w-]+)/.exec(ctx.mailer.lastTo(email)?.text ?? '')?.[1] ?? ''
    const written = await expectLoggedWithout(
      () =>
        ctx.global.inject({
          method: 'POST',
          url: `/api/auth/complete-invitation/${owner.org.businessId}?token=${invitation}`,
          payload: { email, password: 'invited-user-passphrase' },
        }),
      [invitation, 'invited-user-passphrase'],
    )
    expect(written).toContain(`/api/auth/complete-invitation/${owner.org.businessId}?token=${REDACTED}`)

    const org = await registerOrganization(ctx)
    await vi.waitFor(() => expect(ctx.mailer.lastTo(org.email)?.subject).toBe('Verify your email address'))
    const verification = /token=(cev_[\w-]+)/.exec(ctx.mailer.lastTo(org.email)?.text ?? '')?.[1] ?? ''
    await expectLoggedWithout(
      () => ctx.global.inject({ method: 'GET', url: `/api/auth/verify-by-token?token=${verification}` }),
      [verification],
    )
    // Parameter names in any letter case, as clients of the original platform send them.
    await expectLoggedWithout(
      () => ctx.global.inject({ method: 'GET', url: `/api/auth/verify-by-token?TOKEN=${verification}` }),
      [verification],
    )
  })

  it('redacts email addresses from query strings and never logs passwords or credential headers', async () => {
    const email = uniqueEmail('probe')
    await expectLoggedWithout(
      () => ctx.global.inject({ method: 'GET', url: `/api/organizations/soft-check?emailAddress=${email}` }),
      [email],
    )
    const owner = await ownerSession(ctx)
    await expectLoggedWithout(
      () =>
        ctx.global.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: owner.org.email, password: owner.org.password },
        }),
      [owner.org.password],
    )
    const key = (
      await ctx.global.inject({
        method: 'POST',
        url: '/api/auth/tokens',
        headers: { authorization: `Bearer ${owner.signedIn.accessToken}` },
        payload: { businessId: owner.org.businessId },
      })
    ).json().data.token as string
    await expectLoggedWithout(
      () =>
        ctx.core.inject({
          method: 'GET',
          url: '/api/business',
          headers: {
            authorization: `Bearer ${owner.signedIn.accessToken}`,
            'x-business-id': owner.org.businessId,
            cookie: owner.signedIn.refreshCookie,
          },
        }),
      [owner.signedIn.accessToken, owner.signedIn.refreshCookie.split('=')[1] ?? ''],
    )
    await expectLoggedWithout(
      () => ctx.core.inject({ method: 'GET', url: '/api/business', headers: { 'x-dispatch-api-key': key } }),
      [key],
    )
    // An unknown route logs its URL too.
    await expectLoggedWithout(
      () => ctx.core.inject({ method: 'GET', url: `/api/no-such-route?apiKey=${key}` }),
      [key],
    )
  })
})

describe('redactUrl', () => {
  it('replaces the values of credential and personal parameters whatever their case, and keeps the rest', () => {
    expect(redactUrl('/a?token=cin_x&page=2')).toBe(`/a?token=${REDACTED}&page=2`)
    expect(redactUrl('/a?Token=1&EmailAddress=a%40b.c&refresh_token=2&api-key=3&Password=4')).toBe(
      `/a?Token=${REDACTED}&EmailAddress=${REDACTED}&refresh_token=${REDACTED}&api-key=${REDACTED}&Password=${REDACTED}`,
    )
    expect(redactUrl('/a?%74oken=x')).toBe(`/a?%74oken=${REDACTED}`)
    expect(redactUrl('/a/b')).toBe('/a/b')
    expect(redactUrl('/a?$filter=name eq 1&flag')).toBe('/a?$filter=name eq 1&flag')
  })
})
