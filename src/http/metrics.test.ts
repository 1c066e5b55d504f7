import type { Server } from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { ownerSession, useTestContext } from '../../test/harness.js'
import { startMetricsServer } from './metrics.js'

describe('with METRICS_ENABLED=true', () => {
  const ctx = useTestContext({ METRICS_ENABLED: 'true' })

  it('serves Prometheus text on both ports: requests and latency by route pattern and status, pool, event loop', async () => {
    const { core, org } = await ownerSession(ctx)
    await core({ url: `/api/v1/Customers/${org.businessId}` }) // 404 on a route with an id
    await ctx.core.inject({ url: '/api/v1/Customers' }) // 401
    await ctx.core.inject({ url: '/no/such/thing' })
    for (const app of [ctx.core, ctx.global]) {
      const response = await app.inject({ url: '/metrics' })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
      expect(response.body).toContain('# TYPE cartage_http_requests_total counter')
      expect(response.body).toMatch(
        /cartage_http_requests_total\{api="core",method="GET",route="\/api\/v1\/Customers\/:customerId",status="404"\} [1-9]/,
      )
      expect(response.body).toMatch(
        /cartage_http_request_duration_seconds_bucket\{le="\+Inf",api="core",method="GET",route="\/api\/v1\/Customers",status="401"\} [1-9]/,
      )
      expect(response.body).toMatch(/route="unmatched",status="404"/)
      expect(response.body).toMatch(/api="global",method="POST",route="\/api\/auth\/login",status="200"/)
      expect(response.body).toMatch(/^cartage_db_pool_connections \d+/m)
      expect(response.body).toMatch(/^cartage_db_pool_waiting_requests \d+/m)
      expect(response.body).toMatch(/^nodejs_eventloop_lag_seconds \d/m)
      // Raw ids never become labels.
      expect(response.body).not.toContain(org.businessId)
    }
  })
})

describe('by default', () => {
  const ctx = useTestContext()

  it('serves no metrics', async () => {
    expect((await ctx.core.inject({ url: '/metrics' })).statusCode).toBe(404)
    expect((await ctx.global.inject({ url: '/metrics' })).statusCode).toBe(404)
  })
})

describe('with METRICS_PORT set', () => {
  const ctx = useTestContext({ METRICS_ENABLED: 'true', METRICS_PORT: '0' })
  let server: Server | undefined
  afterAll(() => server?.close())

  it('serves them only on that port, never on the public ones', async () => {
    expect((await ctx.core.inject({ url: '/metrics' })).statusCode).toBe(404)
    expect((await ctx.global.inject({ url: '/metrics' })).statusCode).toBe(404)
    await ctx.core.inject({ url: '/health/live' })
    server = await startMetricsServer('127.0.0.1', 0)
    const address = server.address()
    if (typeof address !== 'object' || !address) throw new Error('not listening')
    const response = await fetch(`http://127.0.0.1:${address.port}/metrics`)
    expect(response.status).toBe(200)
    expect(await response.text()).toMatch(/route="\/health\/live",status="200"/)
    expect((await fetch(`http://127.0.0.1:${address.port}/other`)).status).toBe(404)
  })
})
