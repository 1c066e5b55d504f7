import multipart from '@fastify/multipart'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation, type RouteAccess } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { PROOF_TYPES } from './files.repository.js'
import { FileContent, FileIdParams, FileResponse, UploadFileBody } from './files.schemas.js'
import { type FilesContext, openFile, type UploadKind, uploadFile } from './files.service.js'
import { createFileStorage } from './storage.js'

const TAGS = ['Files']
const MEMBER = { signedIn: true, business: true } as const

/**
 * Core API: file upload and download. Multipart parsing is registered in this plugin's own scope,
 * so every other route keeps accepting JSON bodies only.
 */
export function registerFileRoutes(app: HttpApp, deps: AppDeps) {
  void app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>()
    const context: FilesContext = { ...deps, storage: await createFileStorage(deps.config) }
    const maxBytes = deps.config.fileMaxBytes
    await scope.register(multipart, {
      // One byte over the limit is enough to know the file is too large; busboy drops the rest.
      limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 100 },
      throwFileSizeLimit: false,
    })

    /** One upload route: who may call it, what it is for and which types it accepts. */
    const uploadRoute = (
      url: string,
      permission: RouteAccess,
      doc: { operationId: string; summary: string; description: string },
      kind: UploadKind,
    ) =>
      scope.post(
        url,
        {
          ...operation(permission, {
            ...doc,
            tags: TAGS,
            consumes: ['multipart/form-data'],
            body: UploadFileBody,
            response: SingleResult('core', FileResponse),
            errors: [400, 413, 415],
          }),
          // The body is a stream read by the service; its schema only documents it.
          validatorCompiler: () => () => true,
        },
        async (request) =>
          single('core', await uploadFile(context, businessAuthOf(request), request, request.log, kind)),
      )

    uploadRoute(
      '/api/files/single',
      ['Customers', 'Modify'],
      {
        operationId: 'UploadFile',
        summary: 'Upload one file (multipart/form-data, one part named file)',
        description:
          `Step 1 of attaching a file: the returned id is the file attachment id to pass to AddCustomerFileAttachment. At most ${maxBytes} bytes ` +
          '(FILE_MAX_BYTES) or a 413 `file_too_large`. The type is detected from the content, not from the declared type or name; allowed are ' +
          'PNG, JPEG, GIF, WebP and HEIC images, PDF, docx, xlsx, pptx, and UTF-8 text without NUL bytes (text/csv when the name ends in .csv), ' +
          'anything else (HTML, SVG, executables, archives, ...) is a 415 `file_type_not_allowed`. The stored name is the last segment of the ' +
          'given name without control characters, at most 255 characters. Downloading it needs Customers View.',
      },
      { purpose: 'Attachment' },
    )

    // A driver delivering needs Shipments Modify, not Customers Modify: proof images only.
    uploadRoute(
      '/api/files/proof',
      ['Shipments', 'Modify'],
      {
        operationId: 'UploadProofFile',
        summary:
          'Upload a proof-of-delivery image: a signature or a photo (multipart/form-data, one part named file)',
        description:
          'For a stop operation (StopDelivered, StopFailed): the returned id is the signatureFileId or one of the photoFileIds. Needs ' +
          `Shipments Modify, what reporting the stop needs. PNG, JPEG, WebP or HEIC images only (detected from the content) or a 415 \`file_type_not_allowed\`; at most ${maxBytes} bytes ` +
          '(FILE_MAX_BYTES) or a 413 `file_too_large` (the stop operation checks the smaller limits of a signature and a photo). ' +
          'Downloading it needs Shipments View or Customers View.',
      },
      { purpose: 'Proof', only: PROOF_TYPES, onlyWords: 'PNG, JPEG, WebP or HEIC images' },
    )

    scope.get(
      '/api/files/:fileId',
      // Two permissions may read a file (which one depends on the file), so the service checks them.
      operation(MEMBER, {
        operationId: 'DownloadFile',
        summary: 'Download a file of this business',
        description:
          'Needs Customers View, or Shipments View for a proof-of-delivery image (uploaded with UploadProofFile, or an image a reported delivery names as its proof); without it a 403 ' +
          '`permission_denied`. Streams the stored bytes with the detected Content-Type, Content-Length, `Content-Disposition: attachment` (the name as RFC 5987 ' +
          "`filename*=UTF-8''...`) and `X-Content-Type-Options: nosniff`. A file of another business or organisation is a 404.",
        tags: TAGS,
        params: FileIdParams,
        response: FileContent,
        errors: [400, 404],
      }),
      async (request, reply) => {
        const { headers, stream } = await openFile(context, businessAuthOf(request), request.params.fileId)
        return reply.headers(headers).send(stream)
      },
    )
  })
}
