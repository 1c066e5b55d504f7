import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { decodeProtectedHeader, SignJWT } from 'jose'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ownerSession, useTestContext } from '../../test/harness.js'
import {
  ACCESS_AUDIENCE,
  ISSUER,
  rotateSigningKey,
  signingKeyFile,
  TokenError,
  TokenSigner,
} from './signing.js'

// The generated signing key lives in a file of the data directory; the database holds public keys only.
const ctx = useTestContext()
const claims = {
  userId: randomUUID(),
  sessionId: randomUUID(),
  organizationId: randomUUID(),
  businessId: null,
}

describe('the generated access-token signing key', () => {
  it('is kept in <data dir>/signing-key.json with mode 0600, and no database row holds a private key', async () => {
    const { core, signedIn } = await ownerSession(ctx)
    expect((await core({ url: '/api/me' })).statusCode).toBe(200)
    const file = signingKeyFile(ctx.dataDir)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const { kid } = decodeProtectedHeader(signedIn.accessToken)
    expect(JSON.parse(readFileSync(file, 'utf8')).kid).toBe(kid)
    const withPrivate = await sql<{ n: number }>`select count(*)::int as n from global.signing_keys
      where private_pkcs8 <> ''`.execute(ctx.database.db)
    expect(withPrivate.rows[0]?.n).toBe(0)
  })

  it('is the same after a restart, so sessions survive it', async () => {
    const file = signingKeyFile(ctx.dataDir)
    const again = await TokenSigner.load(ctx.database.db, 900, undefined, file)
    expect(again.keyId).toBe(ctx.services.signer.keyId)
    const { token } = await ctx.services.signer.signAccess(claims)
    expect((await again.verifyAccess(token)).sessionId).toBe(claims.sessionId)
  })

  it('moves a private key an earlier version stored in the database to the key file, then erases it', async () => {
    const pair = generateKeyPairSync('ed25519')
    const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const kid = randomUUID()
    const publicJwk = { ...pair.publicKey.export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig' }
    await ctx.database.db
      .insertInto('global.signing_keys')
      .values({
        kid,
        algorithm: 'EdDSA',
        public_jwk: JSON.stringify(publicJwk),
        private_pkcs8: pem,
        active: false,
      })
      .execute()
    const file = path.join(ctx.dataDir, `moved-${randomUUID()}.json`)
    const signer = await TokenSigner.load(ctx.database.db, 900, undefined, file)
    expect(signer.keyId).toBe(kid)
    expect(JSON.parse(readFileSync(file, 'utf8')).privateKey).toBe(pem)
    const row = await ctx.database.db
      .selectFrom('global.signing_keys')
      .select('private_pkcs8')
      .where('kid', '=', kid)
      .executeTakeFirstOrThrow()
    expect(row.private_pkcs8).toBe('')
    await ctx.database.db.deleteFrom('global.signing_keys').where('kid', '=', kid).execute()
  })

  it('rotates: new tokens carry the new kid, tokens of the old key still verify, an unknown kid does not', async () => {
    const file = path.join(ctx.dataDir, `rotated-${randomUUID()}.json`)
    const before = await TokenSigner.load(ctx.database.db, 900, undefined, file)
    const old = await before.signAccess(claims)
    const kid = await rotateSigningKey(ctx.database.db, file)
    expect(kid).not.toBe(before.keyId)
    const after = await TokenSigner.load(ctx.database.db, 900, undefined, file)
    expect(after.keyId).toBe(kid)
    const fresh = await after.signAccess(claims)
    expect(decodeProtectedHeader(fresh.token).kid).toBe(kid)
    expect((await after.verifyAccess(old.token)).sessionId).toBe(claims.sessionId)
    // A process still on the old key verifies the new key's tokens (it reads the new public half).
    expect((await before.verifyAccess(fresh.token)).sessionId).toBe(claims.sessionId)
    expect(statSync(file).mode & 0o777).toBe(0o600)

    const stranger = generateKeyPairSync('ed25519').privateKey
    const forged = await new SignJWT({ sid: claims.sessionId, org: claims.organizationId })
      .setProtectedHeader({ alg: 'EdDSA', kid: randomUUID(), typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(ACCESS_AUDIENCE)
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(stranger)
    await expect(after.verifyAccess(forged)).rejects.toBeInstanceOf(TokenError)
  })
})
