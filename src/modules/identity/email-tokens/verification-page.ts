import { AppError } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import { verifyEmailByToken } from './email-verification.service.js'

const VERIFIED = 'Your email address is verified. You can close this page and sign in.'
const INVALID =
  'This verification link is no longer valid: it was already used, has expired, or is incomplete. ' +
  'Sign in and ask for a new link if your address is not verified yet.'

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - Cartage</title>` +
  '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">` +
  `<h1>${title}</h1><p>${text}</p></body></html>`

/**
 * Verifies the address for someone who opened the emailed link in a browser, and the page that
 * tells them how it went: verified (200), or the link is no longer valid (400).
 */
export async function verifyForBrowser(
  deps: AppDeps,
  token: string | undefined,
): Promise<{ status: 200 | 400; html: string }> {
  try {
    await verifyEmailByToken(deps, token)
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 400) throw error
    return { status: 400, html: page('Link no longer valid', INVALID) }
  }
  return { status: 200, html: page('Email address verified', VERIFIED) }
}
