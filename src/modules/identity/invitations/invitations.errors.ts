import { AppError, conflict, forbidden } from '../../../errors.js'
import type { AuthContext } from '../../../security/auth-context.js'
import { authErrors } from '../../../security/authenticator.js'

/** The invitations module's error codes (tests assert these, never the message). */
export const alreadyMember = () =>
  conflict('already_member', 'This person is already a member of the organisation.')

const ownerRequired = () => forbidden('owner_required', 'Only an owner may invite an owner.')

/** Inviting an owner needs an owner in person: a key made by one is refused with a code of its own. */
export const ownerInPersonRequired = (auth: AuthContext) =>
  auth.kind === 'apiKey'
    ? authErrors.personOnly(
        'An API key cannot invite an owner: only an owner, signed in, grants the Owner role.',
      )
    : ownerRequired()

export const keyGrantsBeyondScopes = () =>
  forbidden(
    'permission_exceeds_caller',
    'An API key cannot invite someone with rights beyond its own scopes.',
  )

export const mailNotSent = () =>
  new AppError(
    503,
    'mail_not_sent',
    'The invitation is saved but its email could not be sent; invite again to send a new link.',
  )
