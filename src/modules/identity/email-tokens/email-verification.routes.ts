import type { FastifyReply } from 'fastify'
import type { AppDeps } from '../../../apps/deps.js'
import { errorResponses } from '../../../http/error-responses.js'
import { AppError } from '../../../http/errors.js'
import type { HttpApp } from '../../../http/kernel.js'
import { NoBody, VerifyByTokenQuery } from './email-verification.schemas.js'
import { verifyEmailByToken } from './email-verification.service.js'

type ProblemContent = { content: Record<string, unknown> }

export function registerEmailVerificationRoutes(app: HttpApp, deps: AppDeps) {
  app.get(
    '/api/auth/verify-by-token',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'VerifyByToken',
        summary: 'Verify an email address with the token from the emailed link',
        description:
          'The link is emailed at registration and is valid for 24 hours, once. Success is HTTP 200 with an empty body. ' +
          'A missing, unknown, used or expired token is a 400 naming `token`. ' +
          'Opened in a browser (`Accept: text/html`) it answers a short HTML page instead, saying the address is verified (200) or the link is no longer valid (400).',
        tags: ['Auth'],
        security: [],
        querystring: VerifyByTokenQuery,
        response: {
          200: {
            description: `${NoBody.description} A browser (Accept: text/html) gets a page instead.`,
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          ...errorResponses('global', 400),
          400: {
            description: 'The token is missing, unknown, used or expired',
            content: {
              'application/problem+json': (errorResponses('global', 400)[400] as ProblemContent).content[
                'application/problem+json'
              ],
              'text/html': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      // Someone who clicked the emailed link sees a page; API clients keep the contract's empty 200.
      if (!/\btext\/html\b/.test(request.headers.accept ?? '')) {
        await verifyEmailByToken(deps, request.query.token)
        return reply.code(200).send()
      }
      try {
        await verifyEmailByToken(deps, request.query.token)
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error
        // The page is not one of the route's JSON bodies, so the typed reply does not know it.
        return (reply as unknown as FastifyReply)
          .code(400)
          .type('text/html; charset=utf-8')
          .send(page('Link no longer valid', INVALID))
      }
      return reply.code(200).type('text/html; charset=utf-8').send(page('Email address verified', VERIFIED))
    },
  )
}

const VERIFIED = 'Your email address is verified. You can close this page and sign in.'
const INVALID =
  'This verification link is no longer valid: it was already used, has expired, or is incomplete. ' +
  'Sign in and ask for a new link if your address is not verified yet.'

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - Cartage</title>` +
  '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">` +
  `<h1>${title}</h1><p>${text}</p></body></html>`
