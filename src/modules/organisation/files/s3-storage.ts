import { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import type { S3Config } from '../../../config.js'
import { DigestStream } from './digest-stream.js'
import { assertSafeKey, type FileStorage, type StoredObject, StoredObjectMissing } from './storage.js'

/** 5 MiB parts (S3's minimum), one in flight: an upload holds at most about two parts in memory. */
const PART_SIZE = 5 * 1024 * 1024

/**
 * Files in an S3-compatible bucket. Uploads stream through a multipart upload (a single PutObject
 * when the content fits in one part), so memory stays bounded whatever the file size.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3' as const
  private readonly client: S3Client
  private readonly bucket: string

  constructor(config: S3Config) {
    this.bucket = config.bucket
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
      // Many S3-compatible services reject the SDK's default trailing checksums; send them only
      // where an operation requires them. Integrity is checked by our own SHA-256 anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    assertSafeKey(key)
    const digest = new DigestStream()
    let sourceError: unknown
    // A source error must reach the digest (and so the upload), which `pipe` alone would not do.
    body.once('error', (error) => {
      sourceError = error
      digest.destroy(error)
    })
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body.pipe(digest) },
      partSize: PART_SIZE,
      queueSize: 1,
      // On failure the multipart upload is aborted, so no parts are left billed in the bucket.
      leavePartsOnError: false,
    })
    try {
      await upload.done()
    } catch (error) {
      // The source's error (e.g. too large) is the cause; a failing abort of the multipart upload
      // would otherwise replace it in what `done` throws.
      throw sourceError ?? error
    }
    return { size: digest.bytesSeen, sha256: digest.sha256() }
  }

  async get(key: string): Promise<Readable> {
    assertSafeKey(key)
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }))
      if (!(result.Body instanceof Readable)) throw new Error('S3 returned no readable body')
      return result.Body
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.name === 'NoSuchKey')) {
        throw new StoredObjectMissing(key)
      }
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key)
    // S3 answers 204 for a missing key too, so deleting twice is harmless.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
  }
}
