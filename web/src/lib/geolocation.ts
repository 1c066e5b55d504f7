/** Where the device is, in WGS 84 degrees, as the stop reports of the API take it. */
export interface DevicePosition {
  latitude: number
  longitude: number
}

/** How long a report waits for a position, the person's answer to the browser's question included. */
const WAIT_MS = 10_000

/**
 * The device's position when the person allows it (the browser asks once), else null: not
 * allowed, no fix in time, or no geolocation at all. Never fails: a stop is reported with or
 * without it.
 */
export function devicePosition(geolocation: Geolocation | undefined = globalThis.navigator?.geolocation) {
  return new Promise<DevicePosition | null>((resolve) => {
    if (!geolocation) {
      resolve(null)
      return
    }
    // The API's own timeout starts only once the person has answered; this one covers the question.
    const timer = setTimeout(() => resolve(null), WAIT_MS)
    geolocation.getCurrentPosition(
      ({ coords }) => {
        clearTimeout(timer)
        resolve({ latitude: coords.latitude, longitude: coords.longitude })
      },
      () => {
        clearTimeout(timer)
        resolve(null)
      },
      // A fresh fix each time: a position kept from the last stop would put this one there.
      { enableHighAccuracy: true, maximumAge: 0, timeout: WAIT_MS },
    )
  })
}
