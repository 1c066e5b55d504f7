import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { Uuid } from '../../../http/schema-helpers.js'
import { ATTACHMENT_TYPES } from '../customers/index.js'

export const TITLE_MAX_LENGTH = 200
export const URL_MAX_LENGTH = 2000

export const AddFileAttachmentRequest = Type.Object(
  {
    type: Type.Optional(
      EnumType(ATTACHMENT_TYPES, {
        description: 'File (default): attach an uploaded file; Link: a titled http(s) link with no file.',
      }),
    ),
    fileAttachmentId: Type.Optional(
      Uuid({ description: 'type File: the id returned by POST /api/files/single (a file of this business)' }),
    ),
    fileId: Type.Optional(Uuid({ description: 'alias of fileAttachmentId' })),
    title: Type.Optional(
      Type.String({
        maxLength: TITLE_MAX_LENGTH,
        description: 'required for Link; optional for File (the file name is shown when absent)',
      }),
    ),
    url: Type.Optional(
      Type.String({ maxLength: URL_MAX_LENGTH, description: 'type Link: an absolute http or https URL' }),
    ),
  },
  { title: 'AddFileAttachmentRequest' },
)
export type AddFileAttachmentRequest = Static<typeof AddFileAttachmentRequest>

export const AttachmentParams = Type.Object({ customerId: Uuid(), attachmentId: Uuid() })
