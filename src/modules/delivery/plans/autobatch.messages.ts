import { type MessageEntry, messageEntry } from '../../../http/envelopes.js'
import type { Point } from './routing.js'

/** A shipment autobatch considers: its load and its delivery point (null: no coordinates). */
export interface Candidate {
  id: string
  code: string
  weight: number
  volume: number
  point: Point | null
}

/** Why a candidate was left out, with what the message says about it. */
export type LeftOut =
  | { shipment: Candidate; reason: 'noLocation' }
  | { shipment: Candidate & { point: Point }; reason: 'noZone' }
  | { shipment: Candidate; reason: 'overCapacity'; weight: number; volume: number }
  | { shipment: Candidate; reason: 'outsideWindows' | 'outsideShift' | 'unreachable' }

/** Why a stop could not be routed: no coordinates, or the engine's reason. */
export type Unrouted = 'noLocation' | 'outsideWindows' | 'outsideShift' | 'unreachable'

const kg = (n: number) => `${Number(n.toFixed(3))} kg`
const m3 = (n: number) => `${Number(n.toFixed(3))} m³`

/** One Warning entry per shipment left out, naming it and why (the codes are stable). */
export function leftOutMessage(
  entry: LeftOut,
  limits: { maxWeight: number; maxVolume: number; namedZones: boolean },
): MessageEntry {
  const { code } = entry.shipment
  const title = `Shipment ${code} left out`
  switch (entry.reason) {
    case 'noLocation':
      return messageEntry(
        'Warning',
        'autobatch_no_coordinates',
        title,
        `Shipment ${code} has no delivery coordinates (latitude and longitude), so no zone or route can place it.`,
      )
    case 'noZone': {
      const { latitude, longitude } = entry.shipment.point
      const zones = limits.namedZones ? "the plan's delivery zones" : 'every active delivery zone'
      return messageEntry(
        'Warning',
        'autobatch_outside_zones',
        title,
        `Shipment ${code}'s delivery point (${latitude}, ${longitude}) lies outside ${zones}.`,
      )
    }
    case 'overCapacity': {
      const over: string[] = []
      const { weight, volume } = entry.shipment
      if (entry.weight + weight > limits.maxWeight + 1e-9)
        over.push(
          `its ${kg(weight)} would take the load to ${kg(entry.weight + weight)} of ${kg(limits.maxWeight)}`,
        )
      if (entry.volume + volume > limits.maxVolume + 1e-9)
        over.push(
          `its ${m3(volume)} would take the volume to ${m3(entry.volume + volume)} of ${m3(limits.maxVolume)}`,
        )
      return messageEntry(
        'Warning',
        'autobatch_over_capacity',
        title,
        `Shipment ${code} does not fit the vehicle: ${over.length > 0 ? over.join(', and ') : 'the load is full'}.`,
      )
    }
    case 'outsideWindows':
      return messageEntry(
        'Warning',
        'autobatch_outside_windows',
        title,
        `Shipment ${code} cannot be delivered within any of its delivery windows, even by the vehicle doing nothing else.`,
      )
    case 'outsideShift':
      return messageEntry(
        'Warning',
        'autobatch_outside_shift',
        title,
        `Shipment ${code} cannot be delivered within its delivery windows during the vehicle's shift beside the plan's other stops.`,
      )
    case 'unreachable':
      return messageEntry(
        'Warning',
        'autobatch_unreachable',
        title,
        `Shipment ${code}'s delivery point cannot be reached from the route's start by the road network.`,
      )
  }
}

export const WHY_NOT_ROUTED: Record<Unrouted, string> = {
  noLocation: 'has no delivery coordinates',
  outsideWindows: 'cannot be reached within any of its delivery windows',
  outsideShift: "cannot be reached within its delivery windows during the vehicle's shift",
  unreachable: 'cannot be reached by the road network',
}

/**
 * A shipment already on the plan that cannot be routed stays on it, after the routed stops, without
 * planned times.
 */
export const unroutedMessage = (s: Candidate, why: Unrouted = 'noLocation') =>
  messageEntry(
    'Info',
    'autobatch_stop_not_routed',
    `Shipment ${s.code} not routed`,
    `Shipment ${s.code} is on the plan but ${WHY_NOT_ROUTED[why]}: it comes after the routed stops, without planned times, and adds nothing to the distance.`,
  )

/** A stop re-optimising found no route to in time: it stays on the plan, last, without a planned arrival. */
export const notReoptimisedMessage = (s: { code: string }, why: Unrouted) =>
  messageEntry(
    'Warning',
    'reoptimise_stop_not_routed',
    `Shipment ${s.code} not routed`,
    `Shipment ${s.code} ${WHY_NOT_ROUTED[why]}: it stays on the plan after the routed stops, without a planned arrival.`,
  )
