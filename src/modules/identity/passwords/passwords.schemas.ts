import { Type } from '@sinclair/typebox'
import { Email } from '../../../http/schema-helpers.js'

export const ForgotPasswordRequest = Type.Object({ email: Email() })

/** Spec ResetPasswordRequest. */
export const ResetPasswordRequest = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 512, description: 'the token from the reset link' }),
  password: Type.String({
    maxLength: 1024,
    description: 'the new password: at least 8 characters, not the email address',
  }),
})
