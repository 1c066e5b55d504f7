import { createPublicKey, randomUUID } from 'node:crypto'
import {
  type CryptoKey,
  calculateJwkThumbprint,
  errors,
  exportJWK,
  importJWK,
  importPKCS8,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose'
import { type Kysely, type SqlBool, sql } from 'kysely'
import type { ChangeListener } from '../db/change-listener.js'
import type { Tables } from '../db/tables.js'
import {
  ALGORITHM,
  newStoredKey,
  publicJwkOf,
  publishPublicKey,
  readKeyFile,
  retirementOf,
  type StoredKey,
  writeKeyFile,
} from './signing-key-store.js'

export { rotateSigningKey, signingKeyFile } from './signing-key-store.js'

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
}

interface PublicKey {
  key: CryptoKey
  /** A retired key verifies nothing after this (epoch ms); null while the key is in use. */
  until: number | null
}

/** Verified tokens are remembered until they expire so a hot client costs one map lookup, not a signature check. */
const VERIFIED_CACHE_LIMIT = 20_000
/** The longest life of a selection token (sessions.service.ts gives 5 minutes). */
const SELECTION_TTL_LIMIT_SECONDS = 10 * 60
/** Clocks of processes and database apart, and a rotation reaching every process. */
const RETIREMENT_SLACK_SECONDS = 60
/** Without a live change listener, keys are re-read this often. */
const KEY_RECHECK_MS = 30_000
/** An unknown kid re-reads the keys at most this often, so garbage tokens cannot turn into database load. */
const UNKNOWN_KID_RELOAD_MS = 5_000

export class TokenSigner {
  private publicKeys = new Map<string, PublicKey>()
  private readonly verified = new Map<string, { claims: AccessClaims; until: number }>()
  private keysReadAt = 0
  private keysStale = false
  private lastUnknownKidReload = 0
  private reloading: Promise<void> | undefined
  /** A retired key verifies the tokens it signed before, which all expire within this. */
  private readonly graceSeconds: number

  private constructor(
    private readonly db: Kysely<Tables>,
    private active: KeyPair,
    private readonly accessTtlSeconds: number,
    /** The generated key's file, re-read when the keys change (absent with JWT_PRIVATE_KEY). */
    private readonly keyFile: string | undefined,
    private readonly changes: ChangeListener | undefined,
  ) {
    this.graceSeconds = Math.max(accessTtlSeconds, SELECTION_TTL_LIMIT_SECONDS) + RETIREMENT_SLACK_SECONDS
    changes?.subscribe((payload) => {
      // A dropped listener (no payload) may have missed a rotation.
      if (payload === undefined || payload === SIGNING_KEYS_PAYLOAD) this.keysStale = true
    })
  }

  /**
   * The signing key: JWT_PRIVATE_KEY when configured, otherwise the key in `keyFile` (generated on
   * first start, mode 0600). The database holds public keys only, so a copy of it cannot sign a
   * token. A key file holding a retired key is replaced: a retired key never signs again.
   * `changes` (the credentials channel) tells of rotations, so a running process follows them.
   */
  static async load(
    db: Kysely<Tables>,
    accessTtlSeconds: number,
    configuredPkcs8: string | undefined,
    keyFile: string,
    changes?: ChangeListener,
  ): Promise<TokenSigner> {
    let active: KeyPair
    let jwk: JWK
    if (configuredPkcs8) {
      const { kty, crv, x } = await exportJWK(createPublicKey(configuredPkcs8))
      const kid = await calculateJwkThumbprint({ kty, crv, x } as JWK)
      jwk = await publicJwkOf(kid, configuredPkcs8)
      active = { kid, privateKey: await importPKCS8(configuredPkcs8, ALGORITHM) }
    } else {
      let stored = readKeyFile(keyFile)
      if (stored && (await retirementOf(db, stored.kid)) instanceof Date)
        stored = writeKeyFile(keyFile, await newStoredKey(), true)
      stored ??= writeKeyFile(keyFile, await newStoredKey(), false)
      jwk = await publicJwkOf(stored.kid, stored.privateKey)
      active = { kid: stored.kid, privateKey: await importPKCS8(stored.privateKey, ALGORITHM) }
    }
    await publishPublicKey(db, jwk, false)
    const signer = new TokenSigner(
      db,
      active,
      accessTtlSeconds,
      configuredPkcs8 ? undefined : keyFile,
      changes,
    )
    await signer.reload()
    return signer
  }

  /** This process's key id (the `kid` of the tokens it signs). */
  get keyId(): string {
    return this.active.kid
  }

  /** Re-reads the keys when a change was announced or, with no live listener, every 30 s. */
  private async ensureFresh() {
    const changes = this.changes
    changes?.start()
    const fresh = !this.keysStale && (changes?.live || Date.now() - this.keysReadAt < KEY_RECHECK_MS)
    if (fresh) return
    try {
      await this.reload()
    } catch (error) {
      // The database is away: tokens still verify with the keys already held (a key retired
      // meanwhile stays trusted only until its grace ends, as `until` says), and the keys are
      // read again on the next request. With none held there is nothing to verify with.
      this.keysStale = true
      if (this.publicKeys.size === 0) throw error
    }
  }

  private reload(): Promise<void> {
    this.reloading ??= this.readKeys().finally(() => {
      this.reloading = undefined
    })
    return this.reloading
  }

  /** Keys in use, and retired keys whose tokens may not all have expired yet. */
  private stillVerifying() {
    return sql<SqlBool>`(retired_at IS NULL OR retired_at > now() - make_interval(secs => ${this.graceSeconds}))`
  }

  /** The keys that still verify something, then the key file in case a rotation replaced it. */
  private async readKeys() {
    // Cleared before reading: a change announced during the read marks the keys stale again.
    this.keysStale = false
    const rows = await this.db
      .selectFrom('global.signing_keys')
      .select(['kid', 'public_jwk', 'retired_at'])
      .where(this.stillVerifying())
      .execute()
    const keys = new Map<string, PublicKey>()
    for (const row of rows) {
      const until = row.retired_at ? row.retired_at.getTime() + this.graceSeconds * 1000 : null
      const known = this.publicKeys.get(row.kid)
      if (known) {
        keys.set(row.kid, { key: known.key, until })
        continue
      }
      try {
        keys.set(row.kid, { key: (await importJWK(row.public_jwk as JWK, ALGORITHM)) as CryptoKey, until })
      } catch {
        // A row that is not an Ed25519 public key verifies nothing; it must not stop the others.
      }
    }
    this.publicKeys = keys
    this.keysReadAt = Date.now()
    // What was verified with a key retired since must be checked again.
    this.verified.clear()
    await this.followKeyFile()
  }

  /**
   * After `cartage keys:rotate`: sign with the key now in the file once it is published and in use.
   * Should this process's own key be retired (or unpublished) while the file still holds it (a
   * rotation on a host sharing a copy of the file, a key retired by hand), make a new one: a
   * retired key never signs.
   */
  private async followKeyFile() {
    const keyFile = this.keyFile
    if (!keyFile) return
    let stored: StoredKey | undefined
    try {
      stored = readKeyFile(keyFile)
    } catch {
      return
    }
    if (stored && stored.kid !== this.active.kid && this.publicKeys.get(stored.kid)?.until === null) {
      this.active = { kid: stored.kid, privateKey: await importPKCS8(stored.privateKey, ALGORITHM) }
      return
    }
    if (this.publicKeys.get(this.active.kid)?.until === null) return
    if (stored && stored.kid !== this.active.kid) return
    const fresh = writeKeyFile(keyFile, await newStoredKey(), true)
    await publishPublicKey(this.db, await publicJwkOf(fresh.kid, fresh.privateKey), false)
    this.active = { kid: fresh.kid, privateKey: await importPKCS8(fresh.privateKey, ALGORITHM) }
    const key = (await importJWK(await publicJwkOf(fresh.kid, fresh.privateKey), ALGORITHM)) as CryptoKey
    this.publicKeys.set(fresh.kid, { key, until: null })
  }

  /** JWKS of every key a token may still be signed with. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const rows = await this.db
      .selectFrom('global.signing_keys')
      .select('public_jwk')
      .where(this.stillVerifying())
      .orderBy('date_created', 'desc')
      .execute()
    return { keys: rows.map((r) => r.public_jwk as JWK) }
  }

  async signAccess(claims: Omit<AccessClaims, 'expiresAt'>): Promise<{ token: string; expiresAt: Date }> {
    await this.ensureFresh()
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
    await this.ensureFresh()
    const seconds = Math.min(ttlSeconds, SELECTION_TTL_LIMIT_SECONDS)
    const expiresAt = new Date((Math.floor(Date.now() / 1000) + seconds) * 1000)
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

  /**
   * The claims of an access token verified before, without a promise, when the keys need no
   * re-reading and the token is still good; undefined otherwise, and verifyAccess decides.
   */
  verifiedAccess(token: string): AccessClaims | undefined {
    if (this.keysStale) return undefined
    const changes = this.changes
    changes?.start()
    if (!changes?.live && Date.now() - this.keysReadAt >= KEY_RECHECK_MS) return undefined
    const cached = this.verified.get(token)
    return cached !== undefined && cached.until > Date.now() ? cached.claims : undefined
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    await this.ensureFresh()
    const cached = this.verified.get(token)
    if (cached) {
      if (cached.until > Date.now()) return cached.claims
      this.verified.delete(token)
      if (cached.claims.expiresAt.getTime() <= Date.now()) throw new TokenError('expired')
      throw new TokenError('invalid')
    }
    const { payload, keyUntil } = await this.verify(token, ACCESS_AUDIENCE, ACCESS_TYPE)
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
    this.verified.set(token, { claims, until: Math.min(claims.expiresAt.getTime(), keyUntil ?? Infinity) })
    return claims
  }

  async verifySelection(token: string): Promise<SelectionClaims> {
    await this.ensureFresh()
    const { payload } = await this.verify(token, SELECTION_AUDIENCE, SELECTION_TYPE)
    if (typeof payload.jti !== 'string') throw new TokenError('invalid')
    return {
      userId: payload.sub as string,
      jti: payload.jti,
      expiresAt: new Date((payload.exp as number) * 1000),
    }
  }

  private async verify(
    token: string,
    audience: string,
    typ: string,
  ): Promise<{ payload: JWTPayload; keyUntil: number | null }> {
    let keyUntil: number | null = null
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const kid = header.kid ?? ''
          // An unknown kid may be a key another process just made (and its notice is on the way).
          if (!this.publicKeys.has(kid) && Date.now() - this.lastUnknownKidReload > UNKNOWN_KID_RELOAD_MS) {
            this.lastUnknownKidReload = Date.now()
            // Unable to read the keys, an unknown kid is undecided, not invalid (a 503, not a 401).
            await this.reload().catch((error: unknown) => {
              throw new KeysUnreadable(error)
            })
          }
          const known = this.publicKeys.get(kid)
          if (!known || (known.until !== null && known.until <= Date.now())) throw new TokenError('invalid')
          keyUntil = known.until
          return known.key
        },
        // Only our algorithm, issuer, audience and token type: `alg: none`, HS256 confusion and
        // other token kinds all fail here.
        { algorithms: [ALGORITHM], issuer: ISSUER, audience, typ, requiredClaims: ['sub', 'exp', 'iat'] },
      )
      if (typeof payload.sub !== 'string') throw new TokenError('invalid')
      // A retired key verifies only what it signed before its retirement, which expires within
      // the grace: a token it claims to have signed for longer was forged with a copy of it.
      if (keyUntil !== null && (payload.exp as number) * 1000 > keyUntil) throw new TokenError('invalid')
      return { payload, keyUntil }
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new TokenError('expired')
      if (error instanceof KeysUnreadable) throw error.cause
      throw new TokenError('invalid')
    }
  }
}

/** The signing keys could not be read (the database is away); carries the database's error. */
class KeysUnreadable extends Error {
  constructor(override readonly cause: unknown) {
    super('the signing keys could not be read')
  }
}

/** The payload of `cartage_credentials` notices about signing keys (migration 20261124150000). */
export const SIGNING_KEYS_PAYLOAD = 'signing_keys'
