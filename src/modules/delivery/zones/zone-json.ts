import { randomUUID } from 'node:crypto'
import type { FastifyReply } from 'fastify'

/**
 * Zone answers whose coordinates are JSON text already: written by the zone thread on a save, or
 * kept with a prepared zone for lookups. Serializing 20,000 positions again held the event loop
 * about 10 ms for each answer (more on a loaded machine), and every other request waited.
 *
 * The answer is serialized by the route's own response schema with a stand-in for each zone's
 * coordinates (a one-string list naming it), and the stand-ins are then replaced by the text.
 * The stand-in names a random token of this process; inside any JSON string its quotes would be
 * escaped, so only the coordinates' stand-ins can match.
 */
const TOKEN = `zone-coordinates-${randomUUID()}`
const STAND_IN = new RegExp(`\\["${TOKEN}:(\\d+)"\\]`, 'g')

export class RawCoordinates {
  private readonly texts: Uint8Array[] = []

  /**
   * The stand-in to put where the coordinates (JSON text, UTF-8) go. Whatever else writes the
   * answer with JSON.stringify (a list's CSV export reads the handler's rows) gets the coordinates
   * themselves through its toJSON; the route's own serializer does not call it on a list.
   */
  add(json: Uint8Array): unknown[] {
    this.texts.push(json)
    const standIn = [`${TOKEN}:${this.texts.length - 1}`]
    Object.defineProperty(standIn, 'toJSON', {
      value: () => JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString()),
    })
    return standIn
  }

  /**
   * Has the reply's answer (a 200: called once the handler has it) serialized by the route's
   * schema with the texts put in place of their stand-ins. The answer is bytes: a 0.8 MB string
   * would be encoded again to be measured and written.
   */
  serializeOn(reply: FastifyReply): void {
    if (this.texts.length === 0) return
    // A list's 200 has a serializer per content type (its CSV export adds text/csv).
    const byStatus: unknown = reply.getSerializationFunction('200')
    const serialize =
      (typeof byStatus === 'function'
        ? (byStatus as (payload: unknown) => string)
        : reply.getSerializationFunction('200', 'application/json')) ?? JSON.stringify
    void reply.type('application/json; charset=utf-8')
    // Fastify sends a serializer's Buffer as it is (its typing says string).
    const bytes = (payload: unknown) => this.splice(serialize(payload as Record<string, unknown>))
    void reply.serializer(bytes as unknown as (payload: unknown) => string)
  }

  private splice(json: string): Buffer {
    const parts: Uint8Array[] = []
    let from = 0
    for (const match of json.matchAll(STAND_IN)) {
      parts.push(Buffer.from(json.slice(from, match.index)), this.texts[Number(match[1])] as Uint8Array)
      from = match.index + match[0].length
    }
    parts.push(Buffer.from(json.slice(from)))
    return Buffer.concat(parts)
  }
}
