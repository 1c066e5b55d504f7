import { conflict } from '../../../errors.js'

/** The registration module's error codes (tests assert these, never the message). */
export const emailTaken = () => conflict('email_taken', 'A user with this email address already exists.')
