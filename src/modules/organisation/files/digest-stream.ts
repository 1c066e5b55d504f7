import { createHash } from 'node:crypto'
import { Transform, type TransformCallback } from 'node:stream'

/** A pass-through that counts and hashes what flows through it, so storage learns both in one pass. */
export class DigestStream extends Transform {
  private readonly hash = createHash('sha256')
  /** Not named `size`: the S3 uploader reads a body's `size` as its total length. */
  bytesSeen = 0

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytesSeen += chunk.length
    this.hash.update(chunk)
    callback(null, chunk)
  }

  /** Hex SHA-256 of everything seen; call once, after the stream has ended. */
  sha256(): string {
    return this.hash.digest('hex')
  }
}
