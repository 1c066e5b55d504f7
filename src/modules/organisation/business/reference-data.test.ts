import { describe, expect, it } from 'vitest'
import { useTestContext } from '../../../../test/harness.js'
import { normaliseCurrency, normaliseTimezone } from './reference-data.js'

const ctx = useTestContext()

interface Defaults {
  currencies: { code: string; name: string; symbol: string; decimals: number }[]
  timezones: { id: string; utcOffset: string }[]
  countries: { code: string; name: string }[]
  units: Record<string, string[]>
  defaults: Record<string, unknown>
}

describe('GET /api/business/default-configuration', () => {
  it('is public and lists real currencies, time zones and countries', async () => {
    const response = await ctx.core.inject({ url: '/api/business/default-configuration' })
    expect(response.statusCode).toBe(200)
    expect(response.json().statusCode).toBe('OK')
    const data = response.json().data as Defaults

    const currency = (code: string) => data.currencies.find((c) => c.code === code)
    expect(data.currencies.length).toBeGreaterThan(140)
    expect(currency('ZAR')).toEqual({ code: 'ZAR', name: 'South African Rand', symbol: 'R', decimals: 2 })
    expect(currency('EUR')).toMatchObject({ symbol: '€', decimals: 2 })
    expect(currency('JPY')).toMatchObject({ decimals: 0 })
    expect(currency('BHD')).toMatchObject({ decimals: 3 })
    expect(new Set(data.currencies.map((c) => c.code)).size).toBe(data.currencies.length)

    const zone = (id: string) => data.timezones.find((z) => z.id === id)
    expect(data.timezones.length).toBeGreaterThan(300)
    expect(zone('Africa/Johannesburg')).toEqual({ id: 'Africa/Johannesburg', utcOffset: '+02:00' })
    expect(zone('UTC')).toEqual({ id: 'UTC', utcOffset: '+00:00' })
    // ICU lists some zones by their older CLDR name (Asia/Katmandu).
    expect(data.timezones.find((z) => /^Asia\/Kath?mandu$/.test(z.id))?.utcOffset).toBe('+05:45')
    for (const z of data.timezones) expect(z.utcOffset).toMatch(/^[+-]\d{2}:\d{2}$/)

    const codes = new Set(data.countries.map((c) => c.code))
    expect(data.countries.length).toBeGreaterThan(200)
    expect(data.countries.length).toBeLessThan(260)
    expect(data.countries.find((c) => c.code === 'ZA')?.name).toBe('South Africa')
    for (const code of ['DE', 'JP', 'US', 'GB', 'NA']) expect(codes.has(code), code).toBe(true)
    // Groupings, pseudo-regions and retired codes are not countries.
    for (const code of ['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ', 'UK', 'DD', 'SU', 'YU', 'ZR', 'AN']) {
      expect(codes.has(code), code).toBe(false)
    }
    for (const c of data.countries) expect(c.code).toMatch(/^[A-Z]{2}$/)

    expect(data.units).toEqual({
      weight: ['G', 'Kg', 'Lb', 'Oz'],
      dimension: ['Mm', 'Cm', 'M', 'In', 'Ft'],
      volume: ['m3', 'cm3', 'l', 'ml', 'ft3', 'in3'],
    })
    expect(data.defaults).toEqual({
      currency: 'USD',
      timezone: 'UTC',
      country: null,
      weightUnit: 'Kg',
      dimensionUnit: 'Cm',
      dateFormat: 'yyyy-MM-dd',
    })
  })

  it('answers from the process cache on repeated calls', async () => {
    const first = await ctx.core.inject({ url: '/api/business/Default-Configuration' })
    const second = await ctx.core.inject({ url: '/api/business/default-configuration' })
    expect(first.statusCode).toBe(200)
    expect(second.json().data).toEqual(first.json().data)
  })
})

describe('currency and time zone input', () => {
  it('normalises case and accepts IANA links, not abbreviations', () => {
    expect(normaliseCurrency('zar')).toBe('ZAR')
    expect(normaliseCurrency('ZZZ')).toBeUndefined()
    expect(normaliseTimezone('AFRICA/JOHANNESBURG')).toBe('Africa/Johannesburg')
    expect(normaliseTimezone('utc')).toBe('UTC')
    expect(normaliseTimezone('Etc/UTC')).toBe('UTC')
    expect(normaliseTimezone('US/Eastern')).toBe('America/New_York')
    expect(normaliseTimezone('EST')).toBeUndefined()
    expect(normaliseTimezone('Mars/Olympus_Mons')).toBeUndefined()
  })
})
