import { describe, expect, it } from 'vitest'
import { addMember, addRole, createApiKey, fieldsOf, organizationIdOf } from '../../../../test/fixtures.js'
import { coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { dashboard, dashboardDataset, RANGE } from './dashboard.fixtures.js'

const ctx = useTestContext()

describe('dashboard insights: parameters, credentials and permissions', () => {
  it('answers 400 naming each bad parameter', async () => {
    const { core } = await ownerSession(ctx)
    const cases: [string, Record<string, string | number>, string][] = [
      ['summary', { from: '2026-02-30' }, 'from'],
      ['summary', { to: 'yesterday' }, 'to'],
      ['summary', { from: '2026-03-20', to: '2026-03-19' }, 'from'],
      ['summary', { from: '1990-01-01', to: '2026-01-01' }, 'from'],
      ['summary', { from: '3000-01-01' }, 'from'],
      ['shipment-volumes', { granularity: 'Hour' }, 'granularity'],
      ['dispatch-volumes', { from: '2020-01-01', to: '2026-01-01' }, 'from'],
      ['shipment-volumes', { from: '2026-01-01T00:00:00Z' }, 'from'],
      ['top-customers', { top: 0 }, 'top'],
      ['top-customers', { top: 101 }, 'top'],
      ['top-customers', { top: 'ten' }, 'top'],
      ['top-customers', { to: '2026-13-01' }, 'to'],
    ]
    for (const [operation, query, field] of cases) {
      const response = await dashboard(core, operation, query)
      expect(response.statusCode, `${operation} ${JSON.stringify(query)}`).toBe(400)
      expect(fieldsOf(response), `${operation} ${JSON.stringify(query)}`).toEqual([field])
    }
    // Six years are fine by week or month.
    const weeks = await dashboard(core, 'dispatch-volumes', {
      from: '2020-01-01',
      to: '2026-01-01',
      granularity: 'Week',
    })
    expect(weeks.statusCode).toBe(200)
    expect(weeks.json().data.buckets).toHaveLength(314)
  })

  it('needs a credential and Insights View, with a bearer token or an API key', async () => {
    const t = await dashboardDataset(ctx)
    const operations = ['summary', 'shipment-volumes', 'dispatch-volumes', 'top-customers']
    const organizationId = await organizationIdOf(ctx, t.org.businessId)
    const withoutInsights = await addMember(ctx, t.org.businessId, {
      role: 'Custom',
      customRoleId: await addRole(ctx, organizationId, { Orders: 7, Shipments: 7, Customers: 7 }),
    })
    const withInsights = await addMember(ctx, t.org.businessId, {
      role: 'Custom',
      customRoleId: await addRole(ctx, organizationId, { Insights: 1 }),
    })
    const key = (scopes: Record<string, number>) =>
      createApiKey(ctx, t.signedIn.accessToken, t.org.businessId, { scopes: JSON.stringify(scopes) })
    const keyWithout = coreAs(ctx, { apiKey: await key({ Orders: 7, Shipments: 7, Customers: 7 }) })
    const keyWith = coreAs(ctx, { apiKey: await key({ Insights: 1 }) })
    const member = await addMember(ctx, t.org.businessId)
    for (const operation of operations) {
      const anonymous = await ctx.core.inject({ url: `/api/v1/insights/dashboard/${operation}` })
      expect(anonymous.statusCode).toBe(401)
      for (const refused of [withoutInsights.core, keyWithout]) {
        const response = await dashboard(refused, operation, RANGE)
        expect(response.statusCode, operation).toBe(403)
        expect(response.json().code).toBe('permission_denied')
      }
      for (const allowed of [withInsights.core, keyWith, member.core]) {
        expect((await dashboard(allowed, operation, RANGE)).statusCode, operation).toBe(200)
      }
    }
    expect((await dashboard(keyWith, 'summary', RANGE)).json().data.orders.revenue).toBe(375)
  })
})
