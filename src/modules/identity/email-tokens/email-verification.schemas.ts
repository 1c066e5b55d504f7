import { Type } from '@sinclair/typebox'

export const VerifyByTokenQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 512, description: 'the token from the verification link' })),
})

/** Spec §4.2: "no body". */
export const NoBody = {
  type: 'null',
  description: 'The address is verified. The response has no body.',
} as const
