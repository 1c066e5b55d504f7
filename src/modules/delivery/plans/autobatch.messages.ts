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
        `Shipment ${code} does not fit the vehicle: ${over.join(', and ')}.`,
      )
    }
  }
}

/** A shipment already on the plan without coordinates stays on it, after the routed stops. */
export const unroutedMessage = (s: Candidate) =>
  messageEntry(
    'Info',
    'autobatch_stop_not_routed',
    `Shipment ${s.code} not routed`,
    `Shipment ${s.code} is on the plan but has no delivery coordinates: it comes after the routed stops and adds nothing to the distance.`,
  )
