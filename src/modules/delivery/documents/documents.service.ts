import type { Readable } from 'node:stream'
import type { Database } from '../../../db/database.js'
import { renderPdf } from '../../../http/pdf.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import type { FileStorage } from '../../organisation/index.js'
import { pickList as planPickList } from '../shipment-lines/index.js'
import { shipmentNotFound } from '../shipments/index.js'
import { planNotFoundForDocument } from './documents.errors.js'
import * as repository from './documents.repository.js'
import { deliveryNoteSpec, pickListSpec, routeSheetSpec } from './documents.specs.js'

/** A signature is at most 1 MiB (checked when the proof was taken); more is not read into memory. */
const SIGNATURE_MAX_BYTES = 1024 * 1024

async function readSmall(stream: Readable, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += (chunk as Buffer).length
    if (size > maxBytes) {
      stream.destroy()
      return undefined
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** The delivery note of a shipment, with its proof (recipient, time, point, signature) once delivered. */
export async function deliveryNote(database: Database, storage: FileStorage, auth: BusinessAuth, id: string) {
  const { schemaName: schema, businessId } = auth
  const shipment = await repository.shipmentForNote(database.db, schema, businessId, id)
  if (!shipment) throw shipmentNotFound()
  const proof =
    shipment.status === 'Delivered'
      ? await repository.deliveryProof(database.db, schema, businessId, id)
      : undefined
  // A signature that can no longer be read leaves the note without its picture, not without the note.
  const signature = proof?.signature_key
    ? await storage
        .get(proof.signature_key)
        .then((stream) => readSmall(stream, SIGNATURE_MAX_BYTES))
        .catch(() => undefined)
    : undefined
  return {
    name: `${shipment.code}-delivery-note.pdf`,
    pdf: await renderPdf(deliveryNoteSpec(shipment, proof, signature)),
  }
}

async function planAndStops(database: Database, auth: BusinessAuth, id: string) {
  const plan = await repository.planForSheet(database.db, auth.schemaName, auth.businessId, id)
  if (!plan) throw planNotFoundForDocument()
  return { plan, stops: await repository.stopsOf(database.db, auth.schemaName, auth.businessId, id) }
}

export async function routeSheet(database: Database, auth: BusinessAuth, id: string) {
  const { plan, stops } = await planAndStops(database, auth, id)
  return { name: `${plan.code}-route-sheet.pdf`, pdf: await renderPdf(routeSheetSpec(plan, stops)) }
}

export async function pickList(database: Database, auth: BusinessAuth, id: string) {
  const { plan, stops } = await planAndStops(database, auth, id)
  // The lines each stop carries, from the pick list the API answers (empty when no shipment has lines).
  const picked = await planPickList(database.db, auth, id)
  const lines = new Map(
    picked.byStop
      .filter((stop) => stop.lines.length > 0)
      .map((stop) => [
        stop.shipmentId,
        stop.lines.map((l) => ({ sku: l.sku, name: l.name, quantity: l.quantity })),
      ]),
  )
  return { name: `${plan.code}-pick-list.pdf`, pdf: await renderPdf(pickListSpec(plan, stops, lines)) }
}
