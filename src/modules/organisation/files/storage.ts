import path from 'node:path'
import type { Readable } from 'node:stream'
import type { Config } from '../../../config.js'

/** What `put` learnt while storing: the stored byte count and the SHA-256 (hex) of exactly those bytes. */
export interface StoredObject {
  size: number
  sha256: string
}

/**
 * Where uploaded file content lives. Keys are made by the server (`<businessId>/<uuid>`), never
 * from anything a client sent, so no client input ever becomes a path or an object name.
 */
export interface FileStorage {
  readonly kind: 'local' | 's3'
  /** Streams `body` into `key`; if `body` fails (e.g. too large), nothing stays behind under `key`. */
  put(key: string, body: Readable): Promise<StoredObject>
  /** The content under `key`; throws `StoredObjectMissing` when there is none. */
  get(key: string): Promise<Readable>
  /** Removes `key`; a key that is already gone is not an error. */
  delete(key: string): Promise<void>
}

export class StoredObjectMissing extends Error {
  constructor(readonly key: string) {
    super(`no stored object under key ${key}`)
    this.name = 'StoredObjectMissing'
  }
}

/** Segments of letters, digits, `-` and `_` joined by `/`: no `.`, `..`, absolute paths or empty segments. */
const SAFE_KEY = /^[A-Za-z0-9_-]{1,128}(\/[A-Za-z0-9_-]{1,128}){0,3}$/

/** Guards every implementation against a key that could escape its directory or bucket prefix. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key ${JSON.stringify(key)}`)
}

/** The storage the configuration names: S3 when `S3_BUCKET` is set, else `FILES_DIR` or `<dataDir>/files`. */
export async function createFileStorage(config: Config): Promise<FileStorage> {
  if (config.s3) {
    // Loaded only when configured: the AWS SDK is large and warns on start-up under Node 20.
    const { S3FileStorage } = await import('./s3-storage.js')
    return new S3FileStorage(config.s3)
  }
  const { LocalFileStorage } = await import('./local-storage.js')
  return new LocalFileStorage(config.filesDir ?? path.join(config.dataDir, 'files'))
}
