import { forbidden, unauthorized } from '../../../errors.js'

/** The auth module's error codes (tests assert these, never the message). */
export const invalidCredentials = () =>
  unauthorized('invalid_credentials', 'The email or password is not correct.')

export const noActiveMembership = () =>
  forbidden('no_active_membership', 'This user belongs to no organisation.')

export const refreshTokenRejected = () =>
  unauthorized(
    'invalid_refresh_token',
    'The refresh token is missing, expired or already used; sign in again.',
  )

export const selectionTokenMissing = () =>
  unauthorized('missing_credential', 'Send the selection token from login as Authorization: Bearer.')

export const selectionTokenExpired = () =>
  unauthorized('token_expired', 'The selection token has expired; sign in again.')

export const selectionTokenInvalid = () =>
  unauthorized('invalid_credential', 'The selection token is not valid.')

export const selectionTokenUsed = () =>
  unauthorized('token_used', 'The selection token has already been used; sign in again.')

export const notAMember = () => forbidden('not_a_member', 'The user is not a member of this organisation.')
