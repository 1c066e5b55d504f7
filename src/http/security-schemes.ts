/** OpenAPI security of the Core API, shared by every module's routes. */
export const CORE_SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from the Global API; send X-Business-Id with it',
  },
  businessId: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Business-Id',
    description: 'The business the bearer-token request acts in',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-dispatch-api-key',
    description: 'API key; acts for the business it was created for',
  },
}

/** Either credential kind: bearer token with X-Business-Id, or an API key. */
export const CORE_SECURITY: Record<string, string[]>[] = [{ bearerAuth: [], businessId: [] }, { apiKey: [] }]

/** OpenAPI security of the Global API. */
export const GLOBAL_SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from login, select-organization, new-token or ott/redeem',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-dispatch-api-key',
    description: 'API key created with POST /api/auth/tokens',
  },
  refreshCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'cartage_refresh',
    description:
      'Refresh token set by login, select-organization and ott/redeem; HttpOnly, SameSite=Lax, Path=/api/auth',
  },
}

/** A bearer token or an API key, with no business header: the Global API's signed-in routes, and Core routes outside a business. */
export const BEARER_OR_API_KEY: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKey: [] }]
