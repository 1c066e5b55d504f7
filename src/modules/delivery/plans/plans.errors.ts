import { conflict, invalidTransition, notFound } from '../../../errors.js'
import type { PlanStatus } from './plans.schemas.js'

export const planNotFound = () =>
  notFound('delivery_plan_not_found', 'No delivery plan of this business has this id.')

export const planNotEditable = (status: string) =>
  conflict('plan_not_editable', `A ${status} plan cannot be changed; only Draft and Scheduled plans can.`)

export const invalidPlanTransition = (from: PlanStatus, to: PlanStatus, allowedFrom: readonly PlanStatus[]) =>
  invalidTransition('A delivery plan', from, to, allowedFrom)

export const shipmentOnAnotherPlan = (code: string) =>
  conflict(
    'shipment_on_another_plan',
    `The shipment is already on delivery plan ${code}; remove it there first.`,
  )

export const shipmentNotAssignable = (status: string) =>
  conflict(
    'shipment_not_assignable',
    `A ${status} shipment cannot be put on a plan; only Pending and Assigned ones can.`,
  )

export const planHasOpenShipments = (codes: readonly string[]) =>
  conflict(
    'plan_has_open_shipments',
    `Every shipment must be Delivered, Failed or Returned first; still open: ${codes.join(', ')}.`,
  )

export const dayChangedWhilePlanning = () =>
  conflict(
    'plan_day_changed',
    'The day’s shipments, vehicles or plans changed while it was being planned; nothing was written. Plan it again.',
  )

export const planChangedWhilePlanning = () =>
  conflict(
    'plan_changed',
    'The plan, its stops, its vehicle or the day’s shipments changed while it was being planned; nothing was written. Run it again.',
  )

export const planNotReoptimisable = (status: string) =>
  conflict(
    'plan_not_reoptimisable',
    `A ${status} plan cannot be re-optimised; only Draft, Scheduled and Dispatched plans can.`,
  )
