/** A reason the server gave for one field (Core `reasons[]`, Global problem `errors[]`). */
export interface FieldReason {
  field: string
  message: string
}

/** An answer of either API that was not a success, with what the server said. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly reasons: readonly FieldReason[] = [],
    readonly requestId: string | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message)
  }
}

/** The request never got an answer: the server is down, the address is wrong, or the network failed. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError'
  constructor(readonly service: string) {
    super(`Could not reach the ${service}.`)
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function reasonsOf(list: unknown): FieldReason[] {
  if (!Array.isArray(list)) return []
  return list.flatMap((item) =>
    isObject(item) && typeof item.message === 'string'
      ? [{ field: typeof item.field === 'string' ? item.field : '', message: item.message }]
      : [],
  )
}

/**
 * The error of a failed answer: the Core API's `{ message, code, reasons }`, the Global API's
 * problem details `{ title, detail, status, code, errors }`, or a body that is neither (a proxy's page).
 */
export function apiErrorFrom(body: unknown, response: Response): ApiError {
  const requestId = response.headers.get('x-request-id')
  const retryAfter = Number(response.headers.get('retry-after'))
  const retry = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null
  if (isObject(body)) {
    const code = typeof body.code === 'string' ? body.code : ''
    const message =
      typeof body.message === 'string'
        ? body.message
        : typeof body.detail === 'string'
          ? body.detail
          : typeof body.title === 'string'
            ? body.title
            : response.statusText
    return new ApiError(
      response.status,
      code,
      message,
      reasonsOf(body.reasons ?? body.errors),
      requestId,
      retry,
    )
  }
  const text = typeof body === 'string' && body.length < 300 ? body : response.statusText
  return new ApiError(response.status, '', text || `HTTP ${response.status}`, [], requestId, retry)
}

/** What to show the person: what happened, and what to do about it. */
export interface ErrorDescription {
  title: string
  detail: string
  action: string
  reasons: readonly FieldReason[]
  requestId: string | null
}

/** Codes whose remedy is more specific than the status's. */
const ACTIONS: Record<string, string> = {
  stock_shortfall:
    'Receive the missing quantity first (a receipt dated on or before that day), issue less, or date the movement later.',
  invalid_status_transition:
    'Reload the page to see its current state; only the moves offered there are possible.',
  invalid_credentials: 'Check the email address and password and try again.',
  token_expired: 'Sign in again.',
  service_holds_no_stock: 'Services hold no stock: choose a stocked product.',
  product_archived: 'Restore the product, or choose another one.',
  bom_cycle: 'Remove the line that makes the product part of itself.',
  component_shortfall: 'Receive the missing components first, or make a smaller quantity.',
  insufficient_stock:
    'Order less of the lines named, receive more stock first, or let the business backorder short lines (setting orders.shortConfirmation).',
  shipment_not_delivered: 'Only goods a delivered shipment carried can come back: deliver it first.',
  plan_has_open_shipments: 'Deliver, fail or take off the shipments still open on the plan first.',
}

export function describeError(error: unknown, what = 'The request'): ErrorDescription {
  if (error instanceof NetworkError)
    return {
      title: `Could not reach the ${error.service}`,
      detail: 'No answer came back: the server may be stopped, or the network may be down.',
      action: 'Check that Cartage is running (npm start) and that this computer is online, then try again.',
      reasons: [],
      requestId: null,
    }
  if (!(error instanceof ApiError))
    return {
      title: `${what} failed`,
      detail: error instanceof Error ? error.message : String(error),
      action: 'Try again; if it keeps failing, reload the page.',
      reasons: [],
      requestId: null,
    }
  const base = { detail: error.message, reasons: error.reasons, requestId: error.requestId }
  const specific = ACTIONS[error.code]
  switch (true) {
    case error.status === 400:
      return {
        ...base,
        title: 'Some values were not accepted',
        action: specific ?? 'Correct the values named below and send again.',
      }
    case error.status === 401:
      return {
        ...base,
        title: error.code === 'invalid_credentials' ? 'Wrong email or password' : 'You are not signed in',
        action: specific ?? 'Sign in again to continue.',
      }
    case error.status === 403:
      return {
        ...base,
        title: 'Not allowed',
        action: specific ?? 'Ask an owner or admin of your organisation to give your role this permission.',
      }
    case error.status === 404:
      return {
        ...base,
        title: 'Not found',
        action: 'It may have been deleted, or belong to another business: go back to the list and reload it.',
      }
    case error.status === 409:
      return {
        ...base,
        title:
          error.code === 'stock_shortfall' ||
          error.code === 'component_shortfall' ||
          error.code === 'insufficient_stock'
            ? 'Not enough stock'
            : 'Not possible in its current state',
        action: specific ?? 'Reload to see its current state, then try again.',
      }
    case error.status === 413:
      return { ...base, title: 'Too large', action: 'Send a smaller file or fewer items at once.' }
    case error.status === 415:
      return { ...base, title: 'File type not accepted', action: 'Choose a file of a type named above.' }
    case error.status === 429:
      return {
        ...base,
        title: 'Too many attempts',
        action: `Wait ${error.retryAfterSeconds ? `${error.retryAfterSeconds} seconds` : 'a few minutes'} and try again.`,
      }
    case error.code === 'database_unavailable':
      return {
        ...base,
        title: 'Cartage cannot reach its database; retrying',
        detail:
          'The server is up but its database is not answering. You stay signed in, and nothing you saved is lost.',
        action: 'The page asks again by itself; what you were sending can be sent again once it answers.',
      }
    case error.status >= 500:
      return {
        ...base,
        title: 'The server failed',
        action: `Try again in a moment; if it keeps failing, give the administrator the request id${error.requestId ? ` ${error.requestId}` : ''} from the server log.`,
      }
    default:
      return { ...base, title: `${what} failed`, action: 'Try again.' }
  }
}
