import S3rver from 's3rver'
import { temporaryDir } from './files.fixtures.js'

/** Test helper: a real S3-compatible server (s3rver, from npm) on a free loopback port. */

export const S3_BUCKET = 'cartage-files'
/** s3rver's built-in credentials; it checks request signatures against them. */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

/** A real (fake) S3 server on a free loopback port, with one bucket; objects live in a temp dir. */
export async function startS3Server() {
  const storage = temporaryDir('s3rver')
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: storage.dir,
    configureBuckets: [{ name: S3_BUCKET }],
  })
  const address = await server.run()
  const endpoint = `http://127.0.0.1:${address.port}`
  return {
    endpoint,
    /** Environment for startTestContext / loadConfig that points file storage at this server. */
    env: {
      S3_BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close()
      storage.remove()
    },
  }
}
