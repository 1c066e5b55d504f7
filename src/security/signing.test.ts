import { generateKeyPairSync } from 'node:crypto'
import { decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { ownerSession, useTestContext } from '../../test/harness.js'

// Access-token keys read from configuration instead of generated: the private half never
// reaches the database, the public half is published and verifies on the Core API.
const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

const ctx = useTestContext({ JWT_PRIVATE_KEY: pem.replace(/\n/g, '\\n') })

describe('JWT_PRIVATE_KEY', () => {
  it('signs with the configured key, publishes it, and keeps its private half out of the database', async () => {
    const { core, signedIn } = await ownerSession(ctx)
    const { kid, alg, typ } = decodeProtectedHeader(signedIn.accessToken)
    expect({ alg, typ }).toEqual({ alg: 'EdDSA', typ: 'at+jwt' })
    expect((await core({ url: '/api/me' })).statusCode).toBe(200)
    const jwks = (await ctx.global.inject({ url: '/.well-known/jwks.json' })).json() as {
      keys: { kid: string }[]
    }
    expect(jwks.keys.map((k) => k.kid)).toContain(kid)
    const row = await ctx.database.db
      .selectFrom('global.signing_keys')
      .selectAll()
      .where('kid', '=', kid ?? '')
      .executeTakeFirstOrThrow()
    expect(row.retired_at).toBeNull()
    expect(Object.keys(row.public_jwk).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x'])
  })
})
