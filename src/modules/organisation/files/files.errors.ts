import { AppError, invalidField, notFound } from '../../../errors.js'

/** The files module's error codes (tests assert these, never the message). */
export const fileNotFound = () => notFound('file_not_found', 'The file does not exist.')

export const fileTooLarge = (maxBytes: number) =>
  new AppError(413, 'file_too_large', `The file is larger than the limit of ${maxBytes} bytes.`)

const EVERY_ALLOWED_TYPE =
  'PNG, JPEG, GIF, WebP, HEIC images, PDF, Word, Excel and PowerPoint (docx, xlsx, pptx), and UTF-8 plain text or CSV'

/** `allowed`: the types this upload accepts, in words (by default every type any upload may be). */
export const fileTypeNotAllowed = (allowed = EVERY_ALLOWED_TYPE) =>
  new AppError(415, 'file_type_not_allowed', `This kind of file is not accepted. Allowed: ${allowed}.`)

export const cannotRead = () =>
  new AppError(
    403,
    'permission_denied',
    'This credential lacks View on Customers (any file) or View on Shipments (a proof-of-delivery image).',
  )

export const notMultipart = () =>
  new AppError(
    415,
    'unsupported_media_type',
    'Send the file as multipart/form-data with one part named file.',
  )

export const malformedUpload = () =>
  new AppError(400, 'malformed_multipart', 'The multipart/form-data body could not be read.')

export const fileMissing = () =>
  invalidField('file', 'is required: send the file as a multipart part named file')

export const emptyFile = () => invalidField('file', 'must not be empty')

export const oneFileOnly = () =>
  invalidField('file', 'must be sent once: send exactly one multipart part named file')
