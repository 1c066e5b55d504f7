import { afterEach, describe, expect, it, vi } from 'vitest'
import { devicePosition } from './geolocation'

/** A Geolocation whose getCurrentPosition does what `answer` says with the two callbacks. */
function fake(answer: (success: PositionCallback, failure: PositionErrorCallback) => void): Geolocation {
  return {
    getCurrentPosition: (success, failure) => answer(success, failure ?? (() => undefined)),
    watchPosition: () => 0,
    clearWatch: () => undefined,
  }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('devicePosition', () => {
  it('answers the latitude and longitude the device gives', async () => {
    const geolocation = fake((success) =>
      success({ coords: { latitude: -33.92, longitude: 18.42 } } as GeolocationPosition),
    )
    expect(await devicePosition(geolocation)).toEqual({ latitude: -33.92, longitude: 18.42 })
  })

  it('answers null when the person does not allow it, or there is no geolocation', async () => {
    const refused = fake((_success, failure) => failure({ code: 1 } as GeolocationPositionError))
    expect(await devicePosition(refused)).toBeNull()
    expect(await devicePosition(undefined)).toBeNull()
  })

  it('answers null after 10 s when the browser is still asking (its own timeout waits for the answer)', async () => {
    vi.useFakeTimers()
    const asked = devicePosition(fake(() => undefined))
    await vi.advanceTimersByTimeAsync(9_999)
    let settled = false
    void asked.then(() => {
      settled = true
    })
    await Promise.resolve()
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await asked).toBeNull()
  })
})
