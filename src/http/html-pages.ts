import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * A few routes answer a person's browser with a page and an API client with the contract's JSON
 * (the emailed verification link, the public tracking link): a browser asks for `text/html`.
 */
export const wantsHtml = (request: Pick<FastifyRequest, 'headers'>): boolean =>
  /\btext\/html\b/.test(request.headers.accept ?? '')

/**
 * Sends a page from a route whose typed reply knows only its JSON bodies (the page is declared in
 * the route's OpenAPI responses, not as a reply schema).
 */
export function sendHtmlPage(
  reply: unknown,
  status: number,
  html: string,
  headers: Record<string, string> = {},
) {
  return (reply as FastifyReply).code(status).headers(headers).type('text/html; charset=utf-8').send(html)
}
