import { Readable } from 'node:stream'
import type { TextValidator } from './content-type.js'

/** The upload was larger than allowed; storage aborts on it and the route answers 413. */
export class FileTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`)
    this.name = 'FileTooLarge'
  }
}

/** Text content turned out not to be UTF-8 (or to hold a NUL) after the sampled start; answered 415. */
export class NotPlainText extends Error {
  constructor() {
    super('the text file is not valid UTF-8 or contains NUL bytes')
    this.name = 'NotPlainText'
  }
}

/** Reading the request failed (malformed multipart data, client gone): the client's fault, a 400. */
export class UploadInterrupted extends Error {
  constructor(cause: unknown) {
    super('the upload could not be read', { cause })
    this.name = 'UploadInterrupted'
  }
}

/**
 * An upload read in two steps: first a bounded sample for type detection, then the whole
 * content (sample included) as a stream that enforces the size limit and, for text, validity.
 * Nothing beyond the sample is ever held in memory here.
 */
export class UploadReader {
  private readonly chunks: AsyncIterator<Buffer>
  private sample: Buffer[] = []
  private sampleBytes = 0
  private ended = false

  constructor(source: Readable) {
    const iterator: AsyncIterator<Buffer> = source[Symbol.asyncIterator]()
    // Errors of the source are the request's (bad multipart data, a dropped connection), never storage's.
    this.chunks = {
      next: () => iterator.next().catch((error: unknown) => Promise.reject(new UploadInterrupted(error))),
      return: (value?: unknown) =>
        iterator.return?.(value) ?? Promise.resolve({ done: true, value: undefined }),
    }
  }

  /** Reads until `bytes` are buffered or the content ends; returns what was read. */
  async head(bytes: number): Promise<Buffer> {
    while (this.sampleBytes < bytes && !this.ended) {
      const next = await this.chunks.next()
      if (next.done) {
        this.ended = true
        break
      }
      this.sample.push(next.value)
      this.sampleBytes += next.value.length
    }
    return Buffer.concat(this.sample)
  }

  /** The complete content; errors with FileTooLarge past `maxBytes` and NotPlainText for bad text. */
  body(maxBytes: number, text: TextValidator | undefined): Readable {
    const sample = this.sample
    this.sample = []
    const chunks = this.chunks
    const ended = this.ended
    async function* guarded(): AsyncGenerator<Buffer> {
      let total = 0
      const check = (chunk: Buffer) => {
        total += chunk.length
        if (total > maxBytes) throw new FileTooLarge(maxBytes)
        if (text && !text.accept(chunk)) throw new NotPlainText()
      }
      for (const chunk of sample) {
        check(chunk)
        yield chunk
      }
      if (!ended) {
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
          check(next.value)
          yield next.value
        }
      }
      if (text && !text.finish()) throw new NotPlainText()
    }
    return Readable.from(guarded(), { objectMode: false })
  }

  /** Stops reading the source (after an early refusal), releasing the upload stream. */
  async discard(): Promise<void> {
    await this.chunks.return?.()
  }
}
