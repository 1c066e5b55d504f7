import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { decodeProtectedHeader, SignJWT } from 'jose'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ownerSession, signIn, useTestContext } from '../../test/harness.js'
import { testDatabaseUrl } from '../../test/test-database.js'
import { openCartage } from '../apps/cartage.js'
import { loadConfig } from '../config.js'
import { shortId } from '../db/ids.js'
import { sql as retireStoredKeysMigration } from '../db/migrations/global/20261124150000-retire-stored-signing-keys.js'
import { MemoryMailer } from '../mail/mailer.js'
import { ACCESS_AUDIENCE, ISSUER, rotateSigningKey, signingKeyFile, TokenSigner } from './signing.js'

// The generated signing key lives in a file of the data directory; the database holds public keys
// only, so nothing read from it (a dump, a backup, a stolen replica) signs a token.
const ctx = useTestContext()

type Owner = Awaited<ReturnType<typeof ownerSession>>

/** An access token for the owner's session, signed with `key` under `kid` (as a forger would). */
async function forge(owner: Owner, key: KeyObject, kid: string, lifetime = '5m') {
  const real = JSON.parse(Buffer.from(owner.signedIn.accessToken.split('.')[1] ?? '', 'base64url').toString())
  return new SignJWT({ sid: real.sid, org: real.org })
    .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(ACCESS_AUDIENCE)
    .setSubject(real.sub)
    .setIssuedAt()
    .setExpirationTime(lifetime)
    .sign(key)
}

const me = (owner: Owner, token: string) =>
  ctx.core.inject({
    url: '/api/me',
    headers: { authorization: `Bearer ${token}`, 'x-business-id': owner.org.businessId },
  })

const keyRow = (kid: string) =>
  ctx.database.db.selectFrom('global.signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst()

/** The apps built anew over the same database and data directory: a restarted server. */
async function restarted() {
  const config = {
    ...loadConfig({ RATE_LIMIT_PER_IP: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' }),
    databaseUrl: testDatabaseUrl(),
    dataDir: ctx.dataDir,
  }
  return openCartage(config, { database: ctx.database, migrate: false, mailer: new MemoryMailer() })
}

describe('the generated access-token signing key', () => {
  it('is kept in <data dir>/signing-key.json with mode 0600; nothing in the database can sign', async () => {
    const owner = await ownerSession(ctx)
    expect((await owner.core({ url: '/api/me' })).statusCode).toBe(200)
    const file = signingKeyFile(ctx.dataDir)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).kid).toBe(
      decodeProtectedHeader(owner.signedIn.accessToken).kid,
    )

    // The table has no column for a private key, and every published key is a public JWK.
    const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_schema = 'global' and table_name = 'signing_keys' order by column_name`.execute(
      ctx.database.db,
    )
    expect(columns.rows.map((c) => c.column_name)).toEqual([
      'active',
      'algorithm',
      'date_created',
      'kid',
      'public_jwk',
      'retired_at',
    ])
    const keys = await ctx.database.db.selectFrom('global.signing_keys').select('public_jwk').execute()
    expect(keys.length).toBeGreaterThan(0)
    for (const { public_jwk: jwk } of keys) {
      expect(Object.keys(jwk).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x'])
    }
    // Nor does any other global table hold key material (a PEM private key or a JWK's private `d`).
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables
      where table_schema = 'global' and table_type = 'BASE TABLE'`.execute(ctx.database.db)
    for (const { table_name: table } of tables.rows) {
      const found = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`global.${table}`)} t
        where to_jsonb(t)::text ~ ${'PRIVATE KEY|"d": "'}`.execute(ctx.database.db)
      expect(found.rows[0]?.n, table).toBe(0)
    }
  })

  it('stays the same across a restart, so tokens and sessions survive it', async () => {
    const owner = await ownerSession(ctx)
    const kid = decodeProtectedHeader(owner.signedIn.accessToken).kid
    const again = await restarted()
    try {
      const answer = await again.core.inject({
        url: '/api/me',
        headers: {
          authorization: `Bearer ${owner.signedIn.accessToken}`,
          'x-business-id': owner.org.businessId,
        },
      })
      expect(answer.statusCode).toBe(200)
      const login = await again.global.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: owner.org.email, password: owner.org.password },
      })
      expect(decodeProtectedHeader(login.json().data.session.accessToken).kid).toBe(kid)
    } finally {
      await again.close()
    }
  })

  it('rotates under a running server: new tokens carry the new kid, earlier tokens verify until they expire', async () => {
    const owner = await ownerSession(ctx)
    const file = signingKeyFile(ctx.dataDir)
    const oldKid = decodeProtectedHeader(owner.signedIn.accessToken).kid as string
    const { kid, retiredKid } = await rotateSigningKey(ctx.database.db, file)
    expect(retiredKid).toBe(oldKid)
    expect(kid).not.toBe(oldKid)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect((await keyRow(oldKid))?.retired_at).toBeInstanceOf(Date)
    expect((await keyRow(kid))?.retired_at).toBeNull()

    // The running server signs with the new key without a restart, and still accepts the old token.
    const fresh = await signIn(ctx, owner.org)
    expect(decodeProtectedHeader(fresh.accessToken).kid).toBe(kid)
    expect((await me(owner, fresh.accessToken)).statusCode).toBe(200)
    expect((await me(owner, owner.signedIn.accessToken)).statusCode).toBe(200)
    const jwks = (await ctx.global.inject({ url: '/.well-known/jwks.json' })).json() as {
      keys: { kid: string }[]
    }
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([kid, oldKid]))

    // A token under a kid nobody published is refused.
    const stranger = generateKeyPairSync('ed25519').privateKey
    const unknown = await me(owner, await forge(owner, stranger, randomUUID()))
    expect(unknown.statusCode).toBe(401)

    // A restart keeps the rotated key.
    const again = await restarted()
    try {
      const login = await again.global.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: owner.org.email, password: owner.org.password },
      })
      expect(decodeProtectedHeader(login.json().data.session.accessToken).kid).toBe(kid)
    } finally {
      await again.close()
    }
  })

  it('a retired key verifies only until its tokens have expired, and never a token longer-lived than that', async () => {
    const owner = await ownerSession(ctx)
    const pair = generateKeyPairSync('ed25519')
    const publish = async (kid: string, retiredAt: string) => {
      const jwk = { ...pair.publicKey.export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig' }
      await ctx.database.db
        .insertInto('global.signing_keys')
        .values({
          kid,
          algorithm: 'EdDSA',
          public_jwk: JSON.stringify(jwk),
          active: false,
          retired_at: sql<Date>`now() - ${retiredAt}::interval`,
        })
        .execute()
    }
    // Retired a minute ago (a rotation, or an upgrade retiring a key an earlier version stored):
    // its tokens still work, so nobody is signed out.
    const recent = randomUUID()
    await publish(recent, '1 minute')
    expect((await me(owner, await forge(owner, pair.privateKey, recent))).statusCode).toBe(200)
    // ...but one it claims to have signed for a day is forged.
    expect((await me(owner, await forge(owner, pair.privateKey, recent, '1d'))).statusCode).toBe(401)

    // Retired a day ago: every token it signed has expired; one made now with it is refused.
    const old = randomUUID()
    await publish(old, '1 day')
    expect((await me(owner, await forge(owner, pair.privateKey, old))).statusCode).toBe(401)
    const jwks = (await ctx.global.inject({ url: '/.well-known/jwks.json' })).json() as {
      keys: { kid: string }[]
    }
    expect(jwks.keys.map((k) => k.kid)).not.toContain(old)
    await ctx.database.db.deleteFrom('global.signing_keys').where('kid', 'in', [recent, old]).execute()
  })

  it('replaces a key file holding a retired key: a retired key never signs again', async () => {
    const file = path.join(ctx.dataDir, `retired-${randomUUID()}.json`)
    const first = await TokenSigner.load(ctx.database.db, 900, undefined, file)
    await ctx.database.db
      .updateTable('global.signing_keys')
      .set({ retired_at: new Date(), active: false })
      .where('kid', '=', first.keyId)
      .execute()
    const second = await TokenSigner.load(ctx.database.db, 900, undefined, file)
    expect(second.keyId).not.toBe(first.keyId)
    expect(JSON.parse(readFileSync(file, 'utf8')).kid).toBe(second.keyId)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    writeFileSync(file, '{}')
    await expect(TokenSigner.load(ctx.database.db, 900, undefined, file)).rejects.toThrow(/signing key file/)
  })

  it('a running server whose key is retired while its file still holds it makes a new key', async () => {
    const owner = await ownerSession(ctx)
    const kid = decodeProtectedHeader(owner.signedIn.accessToken).kid as string
    await ctx.database.db
      .updateTable('global.signing_keys')
      .set({ retired_at: new Date(), active: false })
      .where('kid', '=', kid)
      .execute()
    const fresh = await signIn(ctx, owner.org)
    const next = decodeProtectedHeader(fresh.accessToken).kid
    expect(next).not.toBe(kid)
    expect(JSON.parse(readFileSync(signingKeyFile(ctx.dataDir), 'utf8')).kid).toBe(next)
    expect((await keyRow(next as string))?.retired_at).toBeNull()
    expect((await me(owner, fresh.accessToken)).statusCode).toBe(200)
    expect((await me(owner, owner.signedIn.accessToken)).statusCode).toBe(200)
  })
})

describe('the upgrade from versions that stored the private key in the database', () => {
  it('retires such keys and drops the column, leaving no private key material', async () => {
    // The table as earlier versions created it, in a scratch schema, through the migration's SQL.
    const schema = `legacy_keys_${shortId(4).toLowerCase()}`
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    try {
      await ctx.database.db.transaction().execute(async (trx) => {
        await sql
          .raw(`CREATE SCHEMA ${schema}; SET LOCAL search_path TO ${schema};
          CREATE TABLE signing_keys (kid text PRIMARY KEY, algorithm text NOT NULL, public_jwk jsonb NOT NULL,
            private_pkcs8 text NOT NULL, active boolean NOT NULL DEFAULT true,
            date_created timestamptz NOT NULL DEFAULT now());`)
          .execute(trx)
        await sql`INSERT INTO signing_keys (kid, algorithm, public_jwk, private_pkcs8, active) VALUES
          ('stored', 'EdDSA', '{}', ${pem}, true), ('public', 'EdDSA', '{}', '', false)`.execute(trx)
        await sql.raw(retireStoredKeysMigration).execute(trx)
      })
      const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns
        where table_schema = ${schema} and table_name = 'signing_keys'`.execute(ctx.database.db)
      expect(columns.rows.map((c) => c.column_name)).not.toContain('private_pkcs8')
      const rows = await sql<{ kid: string; retired: boolean; active: boolean; text: string }>`
        select kid, retired_at is not null as retired, active, to_jsonb(k)::text as text
        from ${sql.table(`${schema}.signing_keys`)} k order by kid`.execute(ctx.database.db)
      expect(rows.rows.map(({ kid, retired, active }) => ({ kid, retired, active }))).toEqual([
        { kid: 'public', retired: false, active: false },
        { kid: 'stored', retired: true, active: false },
      ])
      for (const row of rows.rows) expect(row.text).not.toContain('PRIVATE KEY')
    } finally {
      await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(ctx.database.db)
    }
  })
})
