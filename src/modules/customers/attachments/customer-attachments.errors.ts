import { invalidField, notFound } from '../../../errors.js'

/** The customer attachments module's error codes (tests assert these, never the message). */
export const attachmentNotFound = () =>
  notFound('attachment_not_found', 'This customer has no attachment with this id.')

export const fileNotOfBusiness = () =>
  invalidField('fileAttachmentId', 'is not a file uploaded to this business')
