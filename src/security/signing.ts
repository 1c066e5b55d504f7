import { createPublicKey, randomUUID } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  type CryptoKey,
  calculateJwkThumbprint,
  errors,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose'
import type { Kysely } from 'kysely'
import type { Tables } from '../db/schema.js'

const ALGORITHM = 'EdDSA'
export const ISSUER = 'cartage-global'
export const ACCESS_AUDIENCE = 'cartage-core'
const SELECTION_AUDIENCE = 'cartage-global:select-organization'
/** Distinct `typ` headers keep each token kind from passing for another. */
const ACCESS_TYPE = 'at+jwt'
const SELECTION_TYPE = 'selection+jwt'

export interface AccessClaims {
  userId: string
  sessionId: string
  organizationId: string
  /** Set only for sessions handed off with a one-time token. */
  businessId: string | null
  expiresAt: Date
}

export interface SelectionClaims {
  userId: string
  /** The token's own id: select-organization records it so the token works once. */
  jti: string
  expiresAt: Date
}

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason)
  }
}

interface KeyPair {
  kid: string
  privateKey: CryptoKey
  publicJwk: JWK
}

/** Verified tokens are remembered until they expire so a hot client costs one map lookup, not a signature check. */
const VERIFIED_CACHE_LIMIT = 20_000

export class TokenSigner {
  private readonly publicKeys = new Map<string, CryptoKey>()
  private readonly verified = new Map<string, AccessClaims>()
  private lastKeyReload = 0

  private constructor(
    private readonly db: Kysely<Tables>,
    private readonly active: KeyPair,
    private readonly accessTtlSeconds: number,
  ) {}

  /**
   * The signing key: JWT_PRIVATE_KEY when configured, otherwise the key in `keyFile` (generated on
   * first start, mode 0600). The database holds public keys only, so a copy of it cannot sign a
   * token; a private key an older version kept there is moved to `keyFile` and erased first.
   */
  static async load(
    db: Kysely<Tables>,
    accessTtlSeconds: number,
    configuredPkcs8: string | undefined,
    keyFile: string,
  ): Promise<TokenSigner> {
    await moveStoredPrivateKeys(db, keyFile)
    if (configuredPkcs8) return TokenSigner.fromConfiguredKey(db, accessTtlSeconds, configuredPkcs8)
    const stored = readKeyFile(keyFile) ?? (await createKeyFile(keyFile, false))
    const privateKey = await importPKCS8(stored.privateKey, ALGORITHM)
    const jwk: JWK = {
      ...(await exportJWK(createPublicKey(stored.privateKey))),
      kid: stored.kid,
      alg: ALGORITHM,
      use: 'sig',
    }
    await publishPublicKey(db, jwk, false)
    const signer = new TokenSigner(db, { kid: stored.kid, privateKey, publicJwk: jwk }, accessTtlSeconds)
    await signer.loadPublicKeys()
    return signer
  }

  /** This process's key id (the `kid` of the tokens it signs). */
  get keyId(): string {
    return this.active.kid
  }

  /**
   * A key from configuration (JWT_PRIVATE_KEY, PKCS#8 PEM, Ed25519). Only its public half is
   * written to the database, so every process can verify and publish it; the private half stays
   * in the environment.
   */
  private static async fromConfiguredKey(
    db: Kysely<Tables>,
    accessTtlSeconds: number,
    pem: string,
  ): Promise<TokenSigner> {
    const privateKey = await importPKCS8(pem, ALGORITHM)
    const publicJwk = await exportJWK(createPublicKey(pem))
    const kid = await calculateJwkThumbprint(publicJwk)
    const jwk: JWK = { ...publicJwk, kid, alg: ALGORITHM, use: 'sig' }
    await publishPublicKey(db, jwk, false)
    const signer = new TokenSigner(db, { kid, privateKey, publicJwk: jwk }, accessTtlSeconds)
    await signer.loadPublicKeys()
    return signer
  }

  private async loadPublicKeys() {
    const rows = await this.db.selectFrom('global.signing_keys').select(['kid', 'public_jwk']).execute()
    for (const row of rows) {
      if (this.publicKeys.has(row.kid)) continue
      try {
        this.publicKeys.set(row.kid, (await importJWK(row.public_jwk as JWK, ALGORITHM)) as CryptoKey)
      } catch {
        // A row that is not an Ed25519 public key verifies nothing; it must not stop the others.
      }
    }
  }

  /** JWKS of every key a token may still be signed with. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const rows = await this.db
      .selectFrom('global.signing_keys')
      .select('public_jwk')
      .orderBy('date_created', 'desc')
      .execute()
    return { keys: rows.map((r) => r.public_jwk as JWK) }
  }

  async signAccess(claims: Omit<AccessClaims, 'expiresAt'>): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date((Math.floor(Date.now() / 1000) + this.accessTtlSeconds) * 1000)
    const payload: JWTPayload = { sid: claims.sessionId, org: claims.organizationId }
    if (claims.businessId) payload.bid = claims.businessId
    const token = await new SignJWT(payload)
      .setProtectedHeader({ alg: ALGORITHM, kid: this.active.kid, typ: ACCESS_TYPE })
      .setIssuer(ISSUER)
      .setAudience(ACCESS_AUDIENCE)
      .setSubject(claims.userId)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.active.privateKey)
    return { token, expiresAt }
  }

  async signSelection(userId: string, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date((Math.floor(Date.now() / 1000) + ttlSeconds) * 1000)
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, kid: this.active.kid, typ: SELECTION_TYPE })
      .setIssuer(ISSUER)
      .setAudience(SELECTION_AUDIENCE)
      .setSubject(userId)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.active.privateKey)
    return { token, expiresAt }
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const cached = this.verified.get(token)
    if (cached) {
      if (cached.expiresAt.getTime() > Date.now()) return cached
      this.verified.delete(token)
      throw new TokenError('expired')
    }
    const payload = await this.verify(token, ACCESS_AUDIENCE, ACCESS_TYPE)
    const { sid, org, bid } = payload
    if (
      typeof sid !== 'string' ||
      typeof org !== 'string' ||
      (bid !== undefined && typeof bid !== 'string')
    ) {
      throw new TokenError('invalid')
    }
    const claims: AccessClaims = {
      userId: payload.sub as string,
      sessionId: sid,
      organizationId: org,
      businessId: typeof bid === 'string' ? bid : null,
      expiresAt: new Date((payload.exp as number) * 1000),
    }
    if (this.verified.size >= VERIFIED_CACHE_LIMIT) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.verified.keys().next().value
      if (oldest !== undefined) this.verified.delete(oldest)
    }
    this.verified.set(token, claims)
    return claims
  }

  async verifySelection(token: string): Promise<SelectionClaims> {
    const payload = await this.verify(token, SELECTION_AUDIENCE, SELECTION_TYPE)
    if (typeof payload.jti !== 'string') throw new TokenError('invalid')
    return {
      userId: payload.sub as string,
      jti: payload.jti,
      expiresAt: new Date((payload.exp as number) * 1000),
    }
  }

  private async verify(token: string, audience: string, typ: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const kid = header.kid ?? ''
          // An unknown kid may be a key another process just made; reload, but rarely, so
          // garbage tokens cannot turn into database load.
          if (!this.publicKeys.has(kid) && Date.now() - this.lastKeyReload > 5_000) {
            this.lastKeyReload = Date.now()
            await this.loadPublicKeys()
          }
          const key = this.publicKeys.get(kid)
          if (!key) throw new TokenError('invalid')
          return key
        },
        // Only our algorithm, issuer, audience and token type: `alg: none`, HS256 confusion and
        // other token kinds all fail here.
        { algorithms: [ALGORITHM], issuer: ISSUER, audience, typ, requiredClaims: ['sub', 'exp', 'iat'] },
      )
      if (typeof payload.sub !== 'string') throw new TokenError('invalid')
      return payload
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new TokenError('expired')
      throw new TokenError('invalid')
    }
  }
}

interface StoredKey {
  kid: string
  /** PKCS#8 PEM. */
  privateKey: string
}

function readKeyFile(keyFile: string): StoredKey | undefined {
  if (!existsSync(keyFile)) return undefined
  const stored = JSON.parse(readFileSync(keyFile, 'utf8')) as Partial<StoredKey>
  if (typeof stored.kid !== 'string' || typeof stored.privateKey !== 'string')
    throw new Error(`${keyFile} is not a Cartage signing key file`)
  return { kid: stored.kid, privateKey: stored.privateKey }
}

/**
 * Writes a key file atomically with mode 0600: to a temporary file, then linked into place (never
 * replacing one another process wrote first) or, when `replace`, renamed over the old one.
 */
function writeKeyFile(keyFile: string, key: StoredKey, replace: boolean): StoredKey {
  mkdirSync(path.dirname(keyFile), { recursive: true })
  const temporary = `${keyFile}.${process.pid}.${randomUUID()}.tmp`
  writeFileSync(temporary, `${JSON.stringify(key)}\n`, { mode: 0o600, flag: 'wx' })
  try {
    if (replace) renameSync(temporary, keyFile)
    else linkSync(temporary, keyFile)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return readKeyFile(keyFile) as StoredKey
  } finally {
    rmSync(temporary, { force: true })
  }
  return key
}

async function createKeyFile(keyFile: string, replace: boolean): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(ALGORITHM, { crv: 'Ed25519', extractable: true })
  return writeKeyFile(keyFile, { kid: randomUUID(), privateKey: await exportPKCS8(privateKey) }, replace)
}

async function publishPublicKey(db: Kysely<Tables>, jwk: JWK, active: boolean) {
  await db
    .insertInto('global.signing_keys')
    .values({
      kid: jwk.kid as string,
      algorithm: ALGORITHM,
      public_jwk: JSON.stringify(jwk),
      private_pkcs8: '',
      active,
    })
    .onConflict((oc) => oc.column('kid').doNothing())
    .execute()
}

/** Earlier versions kept the generated private key in the database: move the newest to `keyFile`, erase all. */
async function moveStoredPrivateKeys(db: Kysely<Tables>, keyFile: string) {
  const rows = await db
    .selectFrom('global.signing_keys')
    .select(['kid', 'private_pkcs8'])
    .where('private_pkcs8', '<>', '')
    .orderBy('active', 'desc')
    .orderBy('date_created', 'desc')
    .execute()
  const newest = rows[0]
  if (!newest) return
  if (!existsSync(keyFile))
    writeKeyFile(keyFile, { kid: newest.kid, privateKey: newest.private_pkcs8 }, false)
  await db
    .updateTable('global.signing_keys')
    .set({ private_pkcs8: '' })
    .where('private_pkcs8', '<>', '')
    .execute()
}

/**
 * `cartage keys:rotate`: a new key in `keyFile` (the old one's public half stays in the database,
 * so its tokens verify until they expire). Servers sign with the new key once restarted; until
 * then they verify its tokens by reading its public half on first sight of its kid.
 */
export async function rotateSigningKey(db: Kysely<Tables>, keyFile: string): Promise<string> {
  await moveStoredPrivateKeys(db, keyFile)
  const stored = await createKeyFile(keyFile, true)
  const jwk: JWK = {
    ...(await exportJWK(createPublicKey(stored.privateKey))),
    kid: stored.kid,
    alg: ALGORITHM,
    use: 'sig',
  }
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('global.signing_keys').set({ active: false }).where('active', '=', true).execute()
    await publishPublicKey(trx, jwk, true)
  })
  return stored.kid
}

/** Where the generated signing key lives. */
export const signingKeyFile = (dataDir: string) => path.join(dataDir, 'signing-key.json')
