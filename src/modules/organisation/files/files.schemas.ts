import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Uuid } from '../../../http/schema-helpers.js'

export const FileResponse = Type.Object(
  {
    id: Uuid({ description: 'the file attachment id: pass it as fileAttachmentId to attach the file' }),
    fileName: Type.String({
      description: 'the uploaded name made safe: last path segment only, no control characters, at most 255',
    }),
    contentType: Type.String({
      description: 'detected from the content itself, not from what the client declared',
    }),
    sizeBytes: Type.Integer(),
    sha256: Type.String({ description: 'SHA-256 of the stored bytes, lower-case hex' }),
    dateCreated: DateTime(),
  },
  { title: 'FileResponse' },
)
export type FileResponse = Static<typeof FileResponse>

export const FileIdParams = Type.Object({ fileId: Uuid() })

/** Documents the multipart body for OpenAPI; the handler reads the parts as a stream itself. */
export const UploadFileBody = Type.Object({
  file: Type.String({ format: 'binary', description: 'the file content (one part named `file`)' }),
})

/** The download's success answer: the stored bytes, not JSON (OpenAPI `content` with any media type). */
export const FileContent = Type.Unsafe<unknown>({
  description: 'The file content, with the media type it was stored with',
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
})
