import { Type } from '@sinclair/typebox'
import { ProblemDetailsSchema } from '../../../http/error-responses.js'

// The link is opened from an e-mail, and mail services may append tracking parameters
// (utm_source...): it takes any other query parameter, where other operations refuse them.
export const VerifyByTokenQuery = Type.Object(
  {
    token: Type.Optional(
      Type.String({ maxLength: 512, description: 'the token from the verification link' }),
    ),
  },
  { additionalProperties: true },
)

const HTML_PAGE = { schema: { type: 'string' } }

/** 200: no body for API clients, a page for a browser. */
export const EmailVerified = Type.Unsafe<unknown>({
  description:
    'The address is verified. The response has no body. A browser (Accept: text/html) gets a page instead.',
  content: { 'text/html': HTML_PAGE },
})

/** 400: problem details for API clients, a page for a browser. */
export const TokenRefused = {
  description: 'The token is missing, unknown, used or expired',
  content: {
    'application/problem+json': { schema: ProblemDetailsSchema },
    'text/html': HTML_PAGE,
  },
}
