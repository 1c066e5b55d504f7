import { randomUUID } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { DigestStream } from './digest-stream.js'
import { assertSafeKey, type FileStorage, type StoredObject, StoredObjectMissing } from './storage.js'

/**
 * Files under `<root>/<key>` (root: `FILES_DIR`, by default `<dataDir>/files`). A put writes a temporary sibling and renames it into place
 * when complete, so a failed or aborted upload never leaves a partial file under the real key.
 */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local' as const
  readonly root: string

  constructor(root: string) {
    this.root = path.resolve(root)
  }

  private pathOf(key: string): string {
    assertSafeKey(key)
    const full = path.resolve(this.root, key)
    // Belt and braces on top of the key pattern: the result must stay inside the root.
    if (!full.startsWith(this.root + path.sep)) throw new Error('storage key escapes the files directory')
    return full
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    const target = this.pathOf(key)
    await mkdir(path.dirname(target), { recursive: true })
    const temporary = `${target}.${randomUUID()}.part`
    const digest = new DigestStream()
    const handle = await open(temporary, 'wx', 0o600)
    try {
      await pipeline(body, digest, handle.createWriteStream())
      await rename(temporary, target)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    } finally {
      await handle.close().catch(() => {})
    }
    return { size: digest.bytesSeen, sha256: digest.sha256() }
  }

  async get(key: string): Promise<Readable> {
    try {
      // Opening first turns a missing file into an error here, before any response header is sent.
      const handle = await open(this.pathOf(key), 'r')
      return handle.createReadStream()
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StoredObjectMissing(key)
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true })
  }
}
