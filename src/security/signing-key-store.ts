import { createPublicKey, randomUUID } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose'
import { type Kysely, sql } from 'kysely'
import { lockUntilCommit } from '../db/advisory-lock.js'
import type { Tables } from '../db/tables.js'

/**
 * Where generated signing keys live: the private key in a file of the data directory (mode 0600),
 * its public half in `global.signing_keys`. Nothing in the database can sign a token.
 */

export const ALGORITHM = 'EdDSA'

export interface StoredKey {
  kid: string
  /** PKCS#8 PEM. */
  privateKey: string
}

/** Where the generated signing key lives. */
export const signingKeyFile = (dataDir: string) => path.join(dataDir, 'signing-key.json')

export function readKeyFile(keyFile: string): StoredKey | undefined {
  if (!existsSync(keyFile)) return undefined
  const stored = JSON.parse(readFileSync(keyFile, 'utf8')) as Partial<StoredKey>
  if (typeof stored.kid !== 'string' || typeof stored.privateKey !== 'string')
    throw new Error(`${keyFile} is not a Cartage signing key file`)
  return { kid: stored.kid, privateKey: stored.privateKey }
}

/**
 * Writes a key file atomically with mode 0600: to a temporary file, then linked into place (never
 * replacing one another process wrote first: that one is returned) or, when `replace`, renamed
 * over the old one.
 */
export function writeKeyFile(keyFile: string, key: StoredKey, replace: boolean): StoredKey {
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

export async function newStoredKey(): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(ALGORITHM, { crv: 'Ed25519', extractable: true })
  return { kid: randomUUID(), privateKey: await exportPKCS8(privateKey) }
}

/** The public JWK of a PKCS#8 key, as published: `kid`, `alg`, `use`, and no private part. */
export async function publicJwkOf(kid: string, pkcs8: string): Promise<JWK> {
  const { kty, crv, x } = await exportJWK(createPublicKey(pkcs8))
  return { kty, crv, x, kid, alg: ALGORITHM, use: 'sig' } as JWK
}

export async function publishPublicKey(db: Kysely<Tables>, jwk: JWK, active: boolean) {
  await db
    .insertInto('global.signing_keys')
    .values({ kid: jwk.kid as string, algorithm: ALGORITHM, public_jwk: JSON.stringify(jwk), active })
    .onConflict((oc) => oc.column('kid').doNothing())
    .execute()
}

/** When the key was retired (null while it may sign), or undefined when it is not published. */
export async function retirementOf(db: Kysely<Tables>, kid: string): Promise<Date | null | undefined> {
  const row = await db
    .selectFrom('global.signing_keys')
    .select('retired_at')
    .where('kid', '=', kid)
    .executeTakeFirst()
  return row?.retired_at
}

/**
 * `cartage keys:rotate`: a new key in `keyFile`, its public half published, and the key it replaces
 * retired (its tokens verify until they expire; it signs nothing more). Servers using this key
 * file hear of it through the database and sign with the new key from then on.
 *
 * The file is replaced before the transaction commits: should the commit fail, the file holds a
 * key that is published at the next start and nothing was retired; never the other way round (a
 * retired key left in the file).
 */
export async function rotateSigningKey(
  db: Kysely<Tables>,
  keyFile: string,
): Promise<{ kid: string; retiredKid: string | undefined }> {
  const fresh = await newStoredKey()
  const jwk = await publicJwkOf(fresh.kid, fresh.privateKey)
  return db.transaction().execute(async (trx) => {
    // Two rotations of one key file take turns, so each retires the key the other left.
    await lockUntilCommit(trx, 'cartage.signing_keys')
    const previous = readKeyFile(keyFile)
    await trx.updateTable('global.signing_keys').set({ active: false }).where('active', '=', true).execute()
    await publishPublicKey(trx, jwk, true)
    writeKeyFile(keyFile, fresh, true)
    if (previous && previous.kid !== fresh.kid) {
      await trx
        .updateTable('global.signing_keys')
        .set({ retired_at: sql<Date>`now()`, active: false })
        .where('kid', '=', previous.kid)
        .where('retired_at', 'is', null)
        .execute()
    }
    return { kid: fresh.kid, retiredKid: previous?.kid }
  })
}
