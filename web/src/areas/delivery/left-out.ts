import type { ApiMessage } from '../../api/plans'
import type { Position } from '../../lib/geo'

/** Why autobatch did not route a shipment, as the server says it (its message codes). */
export type LeftOutReason =
  | 'noLocation'
  | 'noZone'
  | 'overCapacity'
  | 'outsideWindows'
  | 'outsideShift'
  | 'unreachable'
  | 'notRouted'
  | 'other'

export const LEFT_OUT_WORDS: Record<LeftOutReason, string> = {
  noLocation: 'no coordinates on its delivery address',
  noZone: "outside the plan's zones",
  overCapacity: "over the vehicle's capacity",
  outsideWindows: 'none of its delivery windows can be met',
  outsideShift: "its delivery windows cannot be met within the vehicle's shift",
  unreachable: 'the road network has no route to it',
  notRouted: 'on the plan, but not routed: it comes last, without a planned arrival',
  other: 'left out',
}

/** The message codes autobatch and re-optimising answer with, and what each says of the shipment. */
const BY_CODE: Record<string, LeftOutReason> = {
  autobatch_no_coordinates: 'noLocation',
  autobatch_outside_zones: 'noZone',
  autobatch_over_capacity: 'overCapacity',
  autobatch_outside_windows: 'outsideWindows',
  autobatch_outside_shift: 'outsideShift',
  autobatch_unreachable: 'unreachable',
  autobatch_stop_not_routed: 'notRouted',
  reoptimise_stop_not_routed: 'notRouted',
}

export interface LeftOutEntry {
  /** The shipment's code, as the message names it. */
  code: string
  reason: LeftOutReason
  /** The server's own sentence (it gives the figures for capacity). */
  detail: string
}

const SHIPMENT_CODE = /\bShipment (\S+?)(?:'s)? /

/**
 * The shipments the server says it did not route, in its order, from the answer's messages: those
 * left off the plan (`stays: false`) and those on the plan without a route (`stays: true`).
 * Messages about anything else are not shipments and are left to the caller.
 */
export function leftOutFromMessages(messages: readonly ApiMessage[]): {
  leftOut: LeftOutEntry[]
  notRouted: LeftOutEntry[]
} {
  const leftOut: LeftOutEntry[] = []
  const notRouted: LeftOutEntry[] = []
  for (const m of messages) {
    const isOurs = m.code.startsWith('autobatch_') || m.code.startsWith('reoptimise_')
    if (!isOurs) continue
    const code = SHIPMENT_CODE.exec(m.title)?.[1] ?? SHIPMENT_CODE.exec(m.message)?.[1]
    if (!code) continue
    const reason = BY_CODE[m.code] ?? 'other'
    const entry = { code, reason, detail: m.message }
    ;(reason === 'notRouted' ? notRouted : leftOut).push(entry)
  }
  return { leftOut, notRouted }
}

interface Candidate {
  deliveryAddress: { latitude: number | null; longitude: number | null } | null
}

/** Where a shipment is delivered, as a GeoJSON position; null without both coordinates. */
export function deliveryPoint(shipment: Candidate): Position | null {
  const a = shipment.deliveryAddress
  return a && a.latitude !== null && a.longitude !== null ? [a.longitude, a.latitude] : null
}

/** How a stop is drawn on a plan's map, from its shipment's status. */
export const stopTone = (status: string): 'open' | 'done' | 'problem' =>
  status === 'Delivered'
    ? 'done'
    : status === 'Failed' || status === 'Returned' || status === 'Cancelled'
      ? 'problem'
      : 'open'

/** $filter for shipments scheduled on a delivery day (shipment days are UTC, as autobatch reads them). */
export function scheduledOn(dayValue: string): string {
  const start = new Date(`${dayValue}T00:00:00Z`)
  const next = new Date(start.getTime() + 86_400_000).toISOString().slice(0, 10)
  return `scheduledDate ge ${dayValue}T00:00:00Z and scheduledDate lt ${next}T00:00:00Z`
}

/**
 * The ids in order with the one at `from` moved to `to` (both clamped to the list); the same
 * list when nothing moves. Used by the move buttons, Alt+arrows and a drop.
 */
export function movedTo<T>(ids: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(ids.length - 1, to))
  if (from < 0 || from >= ids.length || from === target) return [...ids]
  const next = [...ids]
  const [moved] = next.splice(from, 1) as [T]
  next.splice(target, 0, moved)
  return next
}
