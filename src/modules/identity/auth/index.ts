/**
 * What the other modules of the identity area may use of identity/auth; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { SessionResponse } from './auth.schemas.js'
export { setRefreshCookie } from './refresh-cookie.js'
export { findUserByEmail, revokeUserSessions, userByEmail } from './sessions.repository.js'
export { type IssuedSession, issueSession } from './sessions.service.js'
