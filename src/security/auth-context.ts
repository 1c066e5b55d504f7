import type { Action, PermissionModule, PermissionSet } from './permissions.js'

/** Who is calling and with what rights; set by the authentication hook before any handler runs. */
export interface AuthContext {
  kind: 'user' | 'apiKey'
  /** The signed-in user, or for an API key the owner who created it. */
  userId: string
  organizationId: string
  schemaName: string
  /** The business the request acts in; null only on routes that need none (GET /api/me, Global API). */
  businessId: string | null
  sessionId: string | null
  apiKeyId: string | null
  /** Owner | Admin | Member | Custom */
  role: string
  isOwner: boolean
  permissions: PermissionSet
  /** The key's or handed-off session's own scopes (null = unrestricted); what it may pass on. */
  scopes: PermissionSet | null
}

/**
 * Whether the caller is an owner in person. A key made by an owner carries the owner's rights, not
 * the owner's standing: what only an owner may do (grant or take away the Owner role, remove an
 * owner, hand out rights beyond the caller's own) needs the owner signed in.
 */
export const isOwnerInPerson = (auth: AuthContext) => auth.kind === 'user' && auth.isOwner

/** The caller of a route that acts in a business: the business id is always present. */
export type BusinessAuth = AuthContext & { businessId: string }

/**
 * A route only a person may call (what acts on a person's session or belongings, or hands out
 * credentials): an API key has no person behind it and gets 403 `api_key_not_allowed` with this
 * message, which says why.
 */
interface PersonOnly {
  personOnly?: string
}

/** What a route needs, declared next to it and enforced in one hook. */
export type Access =
  | { public: true }
  | ({ signedIn: true; business: boolean } & PersonOnly)
  | ({ permission: readonly [PermissionModule, Action] } & PersonOnly)

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access
  }
  interface FastifyRequest {
    auth: AuthContext | null
  }
}
