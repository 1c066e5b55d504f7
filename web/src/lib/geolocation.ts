import { useEffect, useState } from 'react'

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
    // A page watching the position has the latest fix: a second request beside a watch may wait
    // for a change that does not come while the phone stands still.
    const latest = watching.get(geolocation)
    if (latest) {
      resolve({ latitude: latest.latitude, longitude: latest.longitude })
      return
    }
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

/** The last fix of each geolocation a page is watching (useWatchedPosition), for the stop reports. */
const watching = new Map<Geolocation | undefined, WatchedPosition>()

/** Where the device is while a page watches it, and how sure it is (metres, as the browser says). */
export interface WatchedPosition extends DevicePosition {
  accuracy: number
}

/**
 * `idle`: not asked yet (the person has not allowed it); `on`: watching; `denied`: the person or
 * the browser said no; `unavailable`: no geolocation on this device.
 */
export type WatchState = 'idle' | 'on' | 'denied' | 'unavailable'

/**
 * The device's position, followed as it moves, only once the person has allowed it: at once when
 * the site is already allowed (or becomes so, say by a stop report's question), otherwise after
 * `start()`, which lets the browser ask. Stops watching when the page goes.
 */
export function useWatchedPosition(
  geolocation: Geolocation | undefined = globalThis.navigator?.geolocation,
  permissions: Permissions | undefined = globalThis.navigator?.permissions,
) {
  const [state, setState] = useState<WatchState>(geolocation ? 'idle' : 'unavailable')
  const [position, setPosition] = useState<WatchedPosition | null>(null)
  const [wanted, setWanted] = useState(false)

  // Already allowed: watch without asking. Permissions may be missing (older browsers): then only start() watches.
  useEffect(() => {
    if (!geolocation || !permissions) return
    let status: PermissionStatus | null = null
    let gone = false
    const follow = () => {
      if (status?.state === 'granted') setWanted(true)
      else if (status?.state === 'denied') setState('denied')
    }
    permissions
      .query({ name: 'geolocation' })
      .then((answer) => {
        if (gone) return
        status = answer
        follow()
        answer.addEventListener('change', follow)
      })
      .catch(() => undefined)
    return () => {
      gone = true
      status?.removeEventListener('change', follow)
    }
  }, [geolocation, permissions])

  useEffect(() => {
    if (!geolocation || !wanted) return
    const id = geolocation.watchPosition(
      ({ coords }) => {
        const fix = { latitude: coords.latitude, longitude: coords.longitude, accuracy: coords.accuracy }
        watching.set(geolocation, fix)
        setState('on')
        setPosition(fix)
      },
      (error) => {
        // A fix that is late or lost keeps the last position; a refusal ends the watch.
        if (error.code === error.PERMISSION_DENIED) {
          watching.delete(geolocation)
          setState('denied')
          setPosition(null)
          setWanted(false)
        }
      },
      { enableHighAccuracy: true, maximumAge: 10_000 },
    )
    return () => {
      watching.delete(geolocation)
      geolocation.clearWatch(id)
    }
  }, [geolocation, wanted])

  return { state, position, start: () => setWanted(true) }
}
