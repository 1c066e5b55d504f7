import { parseCookie, stringifySetCookie } from 'cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../../config.js'

/** Name of the refresh cookie (the spec leaves it open); sent only to the auth routes. */
export const REFRESH_COOKIE = 'cartage_refresh'
const COOKIE_PATH = '/api/auth'

export function readRefreshCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie
  return header ? parseCookie(header)[REFRESH_COOKIE] : undefined
}

export function setRefreshCookie(reply: FastifyReply, config: Config, token: string, expiresAt: Date) {
  void reply.header(
    'set-cookie',
    stringifySetCookie({
      name: REFRESH_COOKIE,
      value: token,
      httpOnly: true,
      sameSite: 'lax',
      secure: config.cookieSecure,
      path: COOKIE_PATH,
      expires: expiresAt,
    }),
  )
}

export function clearRefreshCookie(reply: FastifyReply, config: Config) {
  void reply.header(
    'set-cookie',
    stringifySetCookie({
      name: REFRESH_COOKIE,
      value: '',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.cookieSecure,
      path: COOKIE_PATH,
      maxAge: 0,
    }),
  )
}
