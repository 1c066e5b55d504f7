import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { registerOrganization, uniqueEmail, useTestContext } from '../../../../test/harness.js'
import { accountDelayMs, MAX_DELAY_MS } from '../../../security/login-throttle.js'

// Three failures per (account, address) pair.
const ctx = useTestContext({ RATE_LIMIT_PER_ACCOUNT: '3' })

/** A fresh client address per use (counters outlive a run on PostgreSQL), so tests never share one. */
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`

const login = (email: string, password: string, remoteAddress: string, app = ctx.global) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress,
  })

describe('login throttling', () => {
  it("an attacker's wrong passwords block only the attacker's address: the owner still signs in from another, a little slower", async () => {
    const owner = await registerOrganization(ctx)
    const attacker = address()
    for (let i = 0; i < 3; i++)
      expect((await login(owner.email, 'guess-wrong', attacker)).statusCode).toBe(401)

    // The pair is blocked, even with the right password.
    const blocked = await login(owner.email, owner.password, attacker)
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json()).toMatchObject({ status: 429, code: 'rate_limited' })
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800)

    // The owner, elsewhere, is slowed down (the account has had 3 failures), not kept out.
    const started = Date.now()
    const ownerLogin = await login(owner.email, owner.password, address())
    expect(ownerLogin.statusCode).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(240)
    // ...and a wrong password from the owner's address is still a plain 401.
    expect((await login(owner.email, 'typo', address())).statusCode).toBe(401)
  })

  it('failures spread over many addresses slow the account down but never block it', async () => {
    const owner = await registerOrganization(ctx)
    for (let i = 0; i < 2; i++) {
      const from = address()
      for (let j = 0; j < 2; j++) expect((await login(owner.email, 'guess-wrong', from)).statusCode).toBe(401)
    }
    const started = Date.now()
    expect((await login(owner.email, owner.password, address())).statusCode).toBe(200)
    const waited = Date.now() - started
    // 4 failures with a threshold of 3: 250 ms doubled once (the cap is checked below).
    expect(waited).toBeGreaterThanOrEqual(490)
    expect(waited).toBeLessThan(MAX_DELAY_MS)
  })

  it("a right password clears the pair's failures", async () => {
    const owner = await registerOrganization(ctx)
    const from = address()
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) expect((await login(owner.email, 'guess-wrong', from)).statusCode).toBe(401)
      expect((await login(owner.email, owner.password, from)).statusCode).toBe(200)
    }
  })

  it('an unknown email counts like a wrong password, and keeps the same answer', async () => {
    const email = uniqueEmail('nobody')
    const from = address()
    for (let i = 0; i < 3; i++) {
      const response = await login(email, 'whatever-password', from)
      expect(response.statusCode).toBe(401)
      expect(response.json().code).toBe('invalid_credentials')
    }
    expect((await login(email, 'whatever-password', from)).statusCode).toBe(429)
  })
})

describe('the per-address limit', () => {
  // Six attempts per address per minute, across accounts.
  const tight = useTestContext({ RATE_LIMIT_PER_IP: '6' })

  it('still holds across accounts', async () => {
    const from = address()
    const spray = () => login(uniqueEmail('spray'), 'pw-guess-1', from, tight.global)
    for (let i = 0; i < 6; i++) expect((await spray()).statusCode).toBe(401)
    expect((await spray()).statusCode).toBe(429)
    // Another address is unaffected.
    expect((await login(uniqueEmail('spray'), 'pw-guess-1', address(), tight.global)).statusCode).toBe(401)
  })
})

describe('accountDelayMs', () => {
  it('is zero below the threshold, then doubles from 250 ms up to the cap', () => {
    expect(accountDelayMs(0, 9)).toBe(0)
    expect(accountDelayMs(8, 9)).toBe(0)
    expect(accountDelayMs(9, 9)).toBe(250)
    expect(accountDelayMs(10, 9)).toBe(500)
    expect(accountDelayMs(13, 9)).toBe(MAX_DELAY_MS)
    expect(accountDelayMs(1_000_000, 9)).toBe(MAX_DELAY_MS)
  })
})
