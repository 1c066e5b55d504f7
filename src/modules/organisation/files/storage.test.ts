import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../config.js'
import { filesUnder, sha256, temporaryDir } from './files.fixtures.js'
import { LocalFileStorage } from './local-storage.js'
import { startS3Server } from './s3-server.fixtures.js'
import { S3FileStorage } from './s3-storage.js'
import { createFileStorage, type FileStorage, StoredObjectMissing } from './storage.js'

const key = () => `${randomUUID()}/${randomUUID()}`

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** A stream of `count` chunks of 64 KiB, each filled with its index. */
function chunks(count: number, failAfter?: number): Readable {
  async function* generate() {
    for (let i = 0; i < count; i++) {
      if (failAfter !== undefined && i === failAfter) throw new Error('source failed')
      yield Buffer.alloc(64 * 1024, i % 256)
    }
  }
  return Readable.from(generate())
}

/** The contract every FileStorage keeps, run against each implementation. */
function contract(name: string, open: () => FileStorage) {
  describe(`${name} storage`, () => {
    it('stores a stream and reports its size and SHA-256; get returns the same bytes', async () => {
      const storage = open()
      const k = key()
      const stored = await storage.put(k, chunks(3))
      const expected = Buffer.concat([0, 1, 2].map((i) => Buffer.alloc(64 * 1024, i)))
      expect(stored).toEqual({ size: expected.length, sha256: sha256(expected) })
      expect((await bytesOf(await storage.get(k))).equals(expected)).toBe(true)
    })

    it('stores an empty body and a larger one that spans several upload parts', async () => {
      const storage = open()
      const empty = key()
      expect(await storage.put(empty, Readable.from([]))).toEqual({
        size: 0,
        sha256: sha256(Buffer.alloc(0)),
      })
      expect(await bytesOf(await storage.get(empty))).toHaveLength(0)
      const large = key()
      const stored = await storage.put(large, chunks(112)) // 7 MiB: two 5 MiB parts on S3
      expect(stored.size).toBe(7 * 1024 * 1024)
      const back = await bytesOf(await storage.get(large))
      expect(sha256(back)).toBe(stored.sha256)
    })

    it('keeps nothing under the key when the source fails part-way', async () => {
      const storage = open()
      const k = key()
      await expect(storage.put(k, chunks(10, 5))).rejects.toThrow('source failed')
      await expect(storage.get(k)).rejects.toBeInstanceOf(StoredObjectMissing)
      // After more than one 5 MiB part went to S3 as well: the source's error is what put reports.
      const later = key()
      await expect(storage.put(later, chunks(112, 100))).rejects.toThrow('source failed')
      await expect(storage.get(later)).rejects.toBeInstanceOf(StoredObjectMissing)
    })

    it('get of an unknown key is StoredObjectMissing; delete removes and may be repeated', async () => {
      const storage = open()
      const k = key()
      await expect(storage.get(k)).rejects.toBeInstanceOf(StoredObjectMissing)
      await storage.put(k, Readable.from([Buffer.from('hello')]))
      expect(await text(await storage.get(k))).toBe('hello')
      await storage.delete(k)
      await expect(storage.get(k)).rejects.toBeInstanceOf(StoredObjectMissing)
      await storage.delete(k)
    })

    it('refuses keys that could leave its directory or prefix', async () => {
      const storage = open()
      for (const bad of [
        '../escape',
        'a/../../b',
        '/etc/passwd',
        'a//b',
        'a/./b',
        '',
        'a\\b',
        'a b',
        'a/b.txt',
      ]) {
        await expect(storage.put(bad, Readable.from([Buffer.from('x')]))).rejects.toThrow(
          /unsafe storage key/,
        )
        await expect(storage.get(bad)).rejects.toThrow(/unsafe storage key/)
        await expect(storage.delete(bad)).rejects.toThrow(/unsafe storage key/)
      }
    })
  })
}

const local = temporaryDir('files')
afterAll(() => local.remove())
contract('local', () => new LocalFileStorage(local.dir))

describe('local storage on disk', () => {
  it('writes under <root>/<key> and leaves no temporary file behind, also after a failure', async () => {
    const { dir, remove } = temporaryDir('files-layout')
    try {
      const storage = new LocalFileStorage(dir)
      const k = key()
      await storage.put(k, Readable.from([Buffer.from('content')]))
      await expect(storage.put(key(), chunks(4, 2))).rejects.toThrow('source failed')
      expect(filesUnder(dir)).toEqual([k])
    } finally {
      remove()
    }
  })
})

let s3: Awaited<ReturnType<typeof startS3Server>>
beforeAll(async () => {
  s3 = await startS3Server()
})
afterAll(() => s3?.close())
contract('S3 (s3rver)', () => new S3FileStorage(loadConfig(s3.env).s3!))

describe('storage from configuration', () => {
  it('is local under FILES_DIR or <dataDir>/files without S3_BUCKET, and S3 with it', async () => {
    expect(await createFileStorage(loadConfig({ FILES_DIR: local.dir }))).toMatchObject({
      kind: 'local',
      root: local.dir,
    })
    const dataDir = loadConfig({ CARTAGE_DATA_DIR: '/srv/cartage' })
    expect(await createFileStorage(dataDir)).toMatchObject({ kind: 'local', root: '/srv/cartage/files' })
    expect((await createFileStorage(loadConfig(s3.env))).kind).toBe('s3')
  })

  it('reports S3 settings problems one line each, naming secrets but never their values', () => {
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'AKIA123', FILE_MAX_BYTES: '0' })).toThrow(
      expect.objectContaining({
        problems: [
          'FILE_MAX_BYTES="0": must be a whole number from 1 to 5368709120',
          'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither',
        ],
      }),
    )
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'very-secret' })).toThrow(
      expect.not.objectContaining({ message: expect.stringContaining('very-secret') }),
    )
    expect(() =>
      loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x', S3_FORCE_PATH_STYLE: 'maybe' }),
    ).toThrow(
      expect.objectContaining({
        problems: [
          'S3_ENDPOINT="ftp://x": must be an http(s) URL',
          'S3_FORCE_PATH_STYLE="maybe": must be true or false',
        ],
      }),
    )
    expect(loadConfig({}).s3).toBeUndefined()
    expect(loadConfig({}).fileMaxBytes).toBe(25 * 1024 * 1024)
  })
})
