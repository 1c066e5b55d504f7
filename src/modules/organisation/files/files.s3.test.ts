import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownerSession, startTestContext, type TestContext } from '../../../../test/harness.js'
import { PNG, sha256, upload } from './files.fixtures.js'
import { S3_BUCKET, S3_CREDENTIALS, startS3Server } from './s3-server.fixtures.js'

const MiB = 1024 * 1024
let s3: Awaited<ReturnType<typeof startS3Server>>
let ctx: TestContext
beforeAll(async () => {
  s3 = await startS3Server()
  ctx = await startTestContext({ ...s3.env, FILE_MAX_BYTES: String(6 * MiB) })
})
afterAll(async () => {
  await ctx?.close()
  await s3?.close()
})

async function objectKeys(): Promise<string[]> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_CREDENTIALS,
  })
  const listed = await client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET }))
  client.destroy()
  return (listed.Contents ?? []).map((o) => o.Key ?? '').sort()
}

describe('uploads stored in an S3-compatible bucket (S3_BUCKET set)', () => {
  it('round-trips a small image and a multi-part file byte for byte', async () => {
    const owner = await ownerSession(ctx)
    const image = await upload(owner.core, PNG, 'logo.png', 'image/png')
    expect(image.statusCode, image.body).toBe(200)
    const imageDownload = await owner.core({ url: `/api/files/${image.json().data.id}` })
    expect(imageDownload.rawPayload.equals(PNG)).toBe(true)
    expect(imageDownload.headers['content-type']).toBe('image/png')

    // 5.5 MiB of text: two parts of a multipart upload.
    const line = 'order,customer,quantity,note ✓\n'
    const big = Buffer.from(line.repeat(Math.ceil((5.5 * MiB) / Buffer.byteLength(line))))
    const response = await upload(owner.core, big, 'export.csv', 'text/csv')
    expect(response.statusCode, response.body).toBe(200)
    const file = response.json().data
    expect(file).toMatchObject({ contentType: 'text/csv', sizeBytes: big.length, sha256: sha256(big) })
    const download = await owner.core({ url: `/api/files/${file.id}` })
    expect(download.headers['content-length']).toBe(String(big.length))
    expect(sha256(download.rawPayload)).toBe(sha256(big))
    expect(await objectKeys()).toEqual(
      expect.arrayContaining([expect.stringMatching(`^${owner.org.businessId}/`)]),
    )
  })

  it('answers 413 for a file over the limit after parts were already sent, and leaves no object', async () => {
    const owner = await ownerSession(ctx)
    const before = await objectKeys()
    const tooBig = Buffer.alloc(6 * MiB + 1, 'x')
    const response = await upload(owner.core, tooBig, 'too-big.txt', 'text/plain')
    expect(response.statusCode).toBe(413)
    expect(response.json().code).toBe('file_too_large')
    expect(await objectKeys()).toEqual(before)
  })
})
