import { forbidden, unauthorized } from '../../../errors.js'

/** The one-time tokens module's error codes (tests assert these, never the message). */
export const businessNotAccessible = () =>
  forbidden('business_not_accessible', 'This credential cannot hand off a session in that business.')

export const invalidOneTimeToken = () =>
  unauthorized('invalid_one_time_token', 'The one-time token is unknown, already used or expired.')
