import { AppError, conflict, forbidden } from '../../../errors.js'

/** The invitations module's error codes (tests assert these, never the message). */
export const alreadyMember = () =>
  conflict('already_member', 'This person is already a member of the organisation.')

export const ownerRequired = () => forbidden('owner_required', 'Only an owner may invite an owner.')

export const mailNotSent = () =>
  new AppError(
    503,
    'mail_not_sent',
    'The invitation is saved but its email could not be sent; invite again to send a new link.',
  )
