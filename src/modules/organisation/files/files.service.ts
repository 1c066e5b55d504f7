import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import { newId } from '../../../db/ids.js'
import type { Executor } from '../../../db/tables.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { can } from '../../../security/permissions.js'
import { DETECTION_SAMPLE_BYTES, detectContentType, TextValidator } from './content-type.js'
import { downloadHeaders } from './download-headers.js'
import { extensionFor, sanitiseFileName } from './file-name.js'
import {
  cannotRead,
  emptyFile,
  fileMissing,
  fileNotFound,
  fileTooLarge,
  fileTypeNotAllowed,
  malformedUpload,
  notMultipart,
  oneFileOnly,
} from './files.errors.js'
import * as repository from './files.repository.js'
import type { FileResponse } from './files.schemas.js'
import type { FilePurpose } from './files.tables.js'
import type { FileStorage } from './storage.js'
import { FileTooLarge, NotPlainText, UploadInterrupted, UploadReader } from './upload-stream.js'

export interface FilesContext extends AppDeps {
  storage: FileStorage
}

/** Room for the multipart framing around the file when judging a declared Content-Length. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024

const toResponse = (row: Awaited<ReturnType<typeof repository.insertFile>>): FileResponse => ({
  id: row.id,
  fileName: row.file_name,
  contentType: row.content_type,
  sizeBytes: row.size_bytes,
  sha256: row.sha256,
  dateCreated: row.date_created.toISOString(),
})

/** The `file` part of a multipart request, refusing early what cannot succeed. */
async function receiveFilePart(request: FastifyRequest, maxBytes: number) {
  if (!request.isMultipart()) throw notMultipart()
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD_BYTES)
    throw fileTooLarge(maxBytes)
  const files = request.files()
  let part: Awaited<ReturnType<FastifyRequest['file']>>
  try {
    part = (await files.next()).value
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode
    if (status === 413) throw fileTooLarge(maxBytes)
    throw malformedUpload()
  }
  if (part?.fieldname !== 'file') throw fileMissing()
  return { part, files }
}

/** After the first file was read: a second file part is a 400, never silently dropped. */
async function refuseMoreFiles(files: AsyncIterator<unknown>) {
  let next: IteratorResult<unknown>
  try {
    next = await files.next()
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_FILES_LIMIT') throw oneFileOnly()
    throw malformedUpload()
  }
  if (!next.done) throw oneFileOnly()
}

/** What an upload is for, and the content types it may be (detected from the content; any other is a 415). */
export interface UploadKind {
  purpose: FilePurpose
  /** Undefined: every type the detector allows. */
  only?: readonly string[]
  /** The allowed types in words, for the 415. */
  onlyWords?: string
}

const ANY_ATTACHMENT: UploadKind = { purpose: 'Attachment' }

/**
 * Stores an upload: detects its type from the first bytes, then streams it to storage while
 * counting and hashing, so memory use does not grow with the file. Any failure after storage
 * began removes the partial object.
 */
export async function uploadFile(
  context: FilesContext,
  auth: BusinessAuth,
  request: FastifyRequest,
  log: FastifyBaseLogger,
  kind: UploadKind = ANY_ATTACHMENT,
): Promise<FileResponse> {
  try {
    return await storeUpload(context, auth, request, log, kind)
  } catch (error) {
    // Read and drop the rest of the body: once parsing stopped nothing else would, and a client
    // still sending would hold its connection open, waiting for the server to read. Unpiping
    // first, as removing the parser's pipe later would pause the request again.
    request.raw.unpipe()
    request.raw.resume()
    throw error
  }
}

async function storeUpload(
  context: FilesContext,
  auth: BusinessAuth,
  request: FastifyRequest,
  log: FastifyBaseLogger,
  { purpose, only, onlyWords }: UploadKind,
): Promise<FileResponse> {
  const maxBytes = context.config.fileMaxBytes
  const { part, files } = await receiveFilePart(request, maxBytes)
  const reader = new UploadReader(part.file)
  const storageKey = `${auth.businessId}/${newId()}`
  let storageStarted = false
  try {
    const head = await reader.head(Math.min(DETECTION_SAMPLE_BYTES, maxBytes + 1))
    if (head.length === 0) throw emptyFile()
    if (head.length > maxBytes) throw fileTooLarge(maxBytes)
    const detected = await detectContentType(head, part.filename ?? '')
    if (!detected || (only && !only.includes(detected.contentType))) throw fileTypeNotAllowed(onlyWords)
    const fileName = sanitiseFileName(part.filename, extensionFor(detected.contentType))

    storageStarted = true
    const body = reader.body(maxBytes, detected.isText ? new TextValidator() : undefined)
    const { size, sha256 } = await context.storage.put(storageKey, body)
    await refuseMoreFiles(files)
    const row = await repository.insertFile(context.database.db, auth.schemaName, {
      id: newId(),
      businessId: auth.businessId,
      storageKey,
      fileName,
      contentType: detected.contentType,
      sizeBytes: size,
      sha256,
      uploadedByUserId: auth.userId,
      purpose,
    })
    return toResponse(row)
  } catch (error) {
    await reader.discard().catch(() => {})
    if (storageStarted) {
      await context.storage.delete(storageKey).catch((cleanupError: unknown) => {
        log.warn({ err: cleanupError, storageKey }, 'could not remove a failed upload')
      })
    }
    throw translate(error, maxBytes)
  }
}

function translate(error: unknown, maxBytes: number): unknown {
  if (error instanceof FileTooLarge) return fileTooLarge(maxBytes)
  if (error instanceof NotPlainText) return fileTypeNotAllowed()
  if (error instanceof UploadInterrupted) return malformedUpload()
  return error
}

/**
 * A file of the caller's business, opened for streaming, with the headers to send it with;
 * another business's id is a 404. Customers View reads every file; Shipments View reads proof
 * images too, so whoever follows a delivery can see its signature and photos; neither is a 403.
 */
export async function openFile(context: FilesContext, auth: BusinessAuth, fileId: string) {
  const customers = can(auth.permissions, 'Customers', 'View')
  const shipments = can(auth.permissions, 'Shipments', 'View')
  // Without either right no file could be read: refused before looking, as a declared permission is.
  if (!customers && !shipments) throw cannotRead()
  const row = await repository.findFile(context.database.db, auth.schemaName, auth.businessId, fileId)
  if (!row) throw fileNotFound()
  if (!customers && row.purpose !== 'Proof') throw cannotRead()
  const stream = await context.storage.get(row.storage_key)
  return { headers: downloadHeaders(row), stream }
}

/**
 * A delivery reported with these files as its proof (a signature, photos): the images among them
 * become Proof, in the caller's transaction, so whoever follows the delivery (Shipments View) can
 * see them, also when they were uploaded as attachments. A caller who may not read attachments
 * (no Customers View) only turns their own uploads into proof: naming another file's id must not
 * open it up to others.
 */
export function markDeliveryProof(db: Executor, auth: BusinessAuth, ids: readonly (string | null)[]) {
  const files = ids.filter((id): id is string => id !== null)
  const uploadedBy = can(auth.permissions, 'Customers', 'View') ? null : auth.userId
  return repository.markProofImages(db, auth.schemaName, auth.businessId, files, uploadedBy)
}
