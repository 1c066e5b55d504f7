import { describe, expect, it } from 'vitest'
import { fieldsOf } from '../../../../test/fixtures.js'
import { type Core, useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post, put } from '../delivery.fixtures.js'
import { PLANS, plan } from './plans.fixtures.js'

const ctx = useTestContext()

async function businessIn(timezone: string | null) {
  const setup = await deliverySetup(ctx)
  if (timezone) {
    const moved = await put(setup.core, `/api/business/${setup.org.businessId}`, {
      registeredName: 'Local Time Ltd',
      displayName: 'Local Time',
      timezone,
    })
    expect(moved.statusCode, moved.body).toBe(200)
  }
  return setup
}

const days = async (core: Core, query: string) =>
  ((await core({ url: `${PLANS}?${query}` })).json().data as { scheduledDate: string }[]).map(
    (p) => p.scheduledDate,
  )

describe('a plan’s scheduledDate as a date or a date-time', () => {
  it("reads a date-time as its instant's day in the business's time zone, on create and update", async () => {
    const { core, key } = await businessIn('Africa/Johannesburg') // UTC+2
    // 08:00 UTC is 10:00 there: the same day.
    expect((await plan(core, { scheduledDate: '2026-11-24T08:00:00Z' })).scheduledDate).toBe('2026-11-24')
    // 23:30 UTC is 01:30 the next day there.
    const late = await plan(key, { scheduledDate: '2026-11-24T23:30:00Z' })
    expect(late.scheduledDate).toBe('2026-11-25')
    // Without an offset a date-time is UTC; with one it is that instant.
    expect((await plan(core, { scheduledDate: '2026-11-24T22:30:00' })).scheduledDate).toBe('2026-11-25')
    expect((await plan(core, { scheduledDate: '2026-11-25T00:30:00+02:00' })).scheduledDate).toBe(
      '2026-11-25',
    )
    expect((await plan(core, { scheduledDate: '2026-11-24T21:59:59.999Z' })).scheduledDate).toBe('2026-11-24')
    // A date is the day itself, whatever the zone.
    expect((await plan(core, { scheduledDate: '2026-11-24' })).scheduledDate).toBe('2026-11-24')

    const updated = await put(core, `${PLANS}/${late.id}`, { scheduledDate: '2026-12-01T22:15:00Z' })
    expect(updated.statusCode, updated.body).toBe(200)
    expect(updated.json().data.scheduledDate).toBe('2026-12-02')
    const again = await put(key, `${PLANS}/${late.id}`, { scheduledDate: '2026-12-01' })
    expect(again.json().data.scheduledDate).toBe('2026-12-01')
  })

  it('takes the UTC day in a business on UTC, and a zone behind UTC the other way', async () => {
    const utc = await businessIn(null)
    expect((await plan(utc.core, { scheduledDate: '2026-11-24T23:30:00Z' })).scheduledDate).toBe('2026-11-24')
    const behind = await businessIn('America/New_York') // UTC-5 in November
    expect((await plan(behind.core, { scheduledDate: '2026-11-24T03:00:00Z' })).scheduledDate).toBe(
      '2026-11-23',
    )
  })

  it('reads from and to date-times as days in the business’s time zone', async () => {
    const { core } = await businessIn('Africa/Johannesburg')
    for (const day of ['2026-11-24', '2026-11-25', '2026-11-26']) await plan(core, { scheduledDate: day })
    expect(await days(core, 'from=2026-11-24T23:00:00Z')).toEqual(['2026-11-26', '2026-11-25'])
    expect(await days(core, 'to=2026-11-24T21:00:00Z')).toEqual(['2026-11-24'])
    expect(await days(core, 'from=2026-11-25&to=2026-11-25T12:00:00')).toEqual(['2026-11-25'])
    const reversed = await core({ url: `${PLANS}?from=2026-11-25T23:00:00Z&to=2026-11-25` })
    expect(fieldsOf(reversed)).toEqual(['to'])
  })

  it('refuses anything else with a 400 naming scheduledDate', async () => {
    const { core } = await businessIn('Africa/Johannesburg')
    const mine = await plan(core, { scheduledDate: '2026-11-24' })
    for (const bad of [
      'tomorrow',
      '2026-11-31',
      '2026-11-24T25:00:00Z',
      '24/11/2026',
      '20261124',
      '',
      20261124,
      null,
    ]) {
      for (const response of [
        await post(core, PLANS, { scheduledDate: bad }),
        await put(core, `${PLANS}/${mine.id}`, { scheduledDate: bad }),
      ]) {
        expect(response.statusCode, `${JSON.stringify(bad)}: ${response.body}`).toBe(400)
        expect(fieldsOf(response)).toEqual(['scheduledDate'])
      }
    }
    const missing = await post(core, PLANS, { name: 'No day' })
    expect(fieldsOf(missing)).toEqual(['scheduledDate'])
    const message = (await post(core, PLANS, { scheduledDate: 'tomorrow' })).json().reasons[0].message
    expect(message).toBe('must be a valid date or date-time')
    expect((await core({ url: `${PLANS}/${mine.id}` })).json().data.scheduledDate).toBe('2026-11-24')
  })
})
