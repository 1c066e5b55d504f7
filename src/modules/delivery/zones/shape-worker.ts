import { parentPort } from 'node:worker_threads'
import { checkBody, transferablesOf } from './shape-work.js'

/** A zone thread: each request body in (bytes handed over), its check out, one at a time. */
parentPort?.on('message', (bytes: Uint8Array) => {
  try {
    const check = checkBody(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'))
    parentPort?.postMessage({ ok: true, check }, transferablesOf(check))
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) })
  }
})
