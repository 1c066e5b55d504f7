import { Type } from '@sinclair/typebox'

export const VerifyByTokenQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 512, description: 'the token from the verification link' })),
})

/** A verified address answers 200 with no body. */
export const NoBody = {
  type: 'null',
  description: 'The address is verified. The response has no body.',
} as const
