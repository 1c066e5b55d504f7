import { createPublicKey, randomUUID } from 'node:crypto'
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

  /** Loads the active key pair, generating and persisting one on first start. */
  static async load(
    db: Kysely<Tables>,
    accessTtlSeconds: number,
    configuredPkcs8?: string,
  ): Promise<TokenSigner> {
    if (configuredPkcs8) return TokenSigner.fromConfiguredKey(db, accessTtlSeconds, configuredPkcs8)
    let row = await db
      .selectFrom('global.signing_keys')
      .selectAll()
      .where('active', '=', true)
      .executeTakeFirst()
    if (!row) {
      const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, {
        crv: 'Ed25519',
        extractable: true,
      })
      const kid = randomUUID()
      await db
        .insertInto('global.signing_keys')
        .values({
          kid,
          algorithm: ALGORITHM,
          public_jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' }),
          private_pkcs8: await exportPKCS8(privateKey),
        })
        // Two processes starting together: the unique partial index lets only one key be active.
        .onConflict((oc) => oc.column('active').where('active', '=', true).doNothing())
        .execute()
      row = await db
        .selectFrom('global.signing_keys')
        .selectAll()
        .where('active', '=', true)
        .executeTakeFirstOrThrow()
    }
    const signer = new TokenSigner(
      db,
      {
        kid: row.kid,
        privateKey: await importPKCS8(row.private_pkcs8, ALGORITHM),
        publicJwk: row.public_jwk as JWK,
      },
      accessTtlSeconds,
    )
    await signer.loadPublicKeys()
    return signer
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
    await db
      .insertInto('global.signing_keys')
      .values({
        kid,
        algorithm: ALGORITHM,
        public_jwk: JSON.stringify(jwk),
        private_pkcs8: '',
        active: false,
      })
      .onConflict((oc) => oc.column('kid').doNothing())
      .execute()
    const signer = new TokenSigner(db, { kid, privateKey, publicJwk: jwk }, accessTtlSeconds)
    await signer.loadPublicKeys()
    return signer
  }

  private async loadPublicKeys() {
    const rows = await this.db.selectFrom('global.signing_keys').select(['kid', 'public_jwk']).execute()
    for (const row of rows) {
      if (!this.publicKeys.has(row.kid))
        this.publicKeys.set(row.kid, (await importJWK(row.public_jwk as JWK, ALGORITHM)) as CryptoKey)
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
