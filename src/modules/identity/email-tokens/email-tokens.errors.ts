import { invalidField } from '../../../errors.js'

/** The same answer for a missing, unknown, used or expired token: a guesser learns nothing. */
export const invalidEmailToken = () =>
  invalidField('token', 'is not valid, has expired or was already used; ask for a new email')
