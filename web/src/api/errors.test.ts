import { describe, expect, it } from 'vitest'
import { ApiError, apiErrorFrom, describeError, NetworkError } from './errors'

const response = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers: { 'x-request-id': 'req-1', ...headers } })

describe('apiErrorFrom', () => {
  it('reads the Core error body', () => {
    const error = apiErrorFrom(
      {
        message: 'Invalid request',
        code: 'validation_failed',
        reasons: [{ field: 'email', message: 'must be an email' }],
      },
      response(400),
    )
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid request',
      requestId: 'req-1',
    })
    expect(error.reasons).toEqual([{ field: 'email', message: 'must be an email' }])
  })

  it('reads the Global problem details', () => {
    const error = apiErrorFrom(
      {
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'Wrong email or password.',
        code: 'invalid_credentials',
      },
      response(401),
    )
    expect(error).toMatchObject({
      status: 401,
      code: 'invalid_credentials',
      message: 'Wrong email or password.',
    })
  })

  it('keeps a body that is not JSON short, and the Retry-After of a 429', () => {
    const error = apiErrorFrom('<html>bad gateway</html>', response(502))
    expect(error).toMatchObject({ status: 502, code: '', message: '<html>bad gateway</html>' })
    expect(apiErrorFrom({}, response(429, { 'retry-after': '30' })).retryAfterSeconds).toBe(30)
  })
})

describe('describeError', () => {
  it('says what to do for each kind of failure', () => {
    expect(describeError(new NetworkError('Core API'))).toMatchObject({
      title: 'Could not reach the Core API',
      action: expect.stringContaining('npm start'),
    })
    expect(
      describeError(new ApiError(400, 'validation_failed', 'x', [{ field: 'name', message: 'is required' }])),
    ).toMatchObject({
      title: 'Some values were not accepted',
      reasons: [{ field: 'name', message: 'is required' }],
    })
    expect(describeError(new ApiError(401, 'invalid_credentials', 'x')).title).toBe('Wrong email or password')
    expect(describeError(new ApiError(403, 'permission_denied', 'x')).action).toContain('owner or admin')
    expect(describeError(new ApiError(404, 'not_found', 'x')).action).toContain('go back to the list')
    expect(describeError(new ApiError(409, 'stock_shortfall', 'x'))).toMatchObject({
      title: 'Not enough stock',
      action: expect.stringContaining('Receive the missing quantity'),
    })
    expect(describeError(new ApiError(409, 'invalid_status_transition', 'x')).action).toContain('Reload')
    expect(describeError(new ApiError(415, 'file_type_not_allowed', 'x')).title).toBe(
      'File type not accepted',
    )
    expect(describeError(new ApiError(429, 'rate_limited', 'x', [], null, 12)).action).toBe(
      'Wait 12 seconds and try again.',
    )
    expect(describeError(new ApiError(500, 'internal', 'x', [], 'abc')).action).toContain('request id abc')
    // The database away: retrying, and the session is kept (not "signed out", not "the server failed").
    expect(describeError(new ApiError(503, 'database_unavailable', 'x', [], null, 5))).toMatchObject({
      title: 'Cartage cannot reach its database; retrying',
      detail: expect.stringContaining('You stay signed in'),
    })
  })
})
