import { AppError, conflict, notFound } from '../../../errors.js'
import type { PlanStatus } from './plans.schemas.js'

export const planNotFound = () =>
  notFound('delivery_plan_not_found', 'No delivery plan of this business has this id.')

export const planNotEditable = (status: string) =>
  conflict('plan_not_editable', `A ${status} plan cannot be changed; only Draft and Scheduled plans can.`)

export const invalidPlanTransition = (from: PlanStatus, to: PlanStatus) =>
  new AppError(409, 'invalid_status_transition', `A delivery plan cannot move from ${from} to ${to}.`, [
    { field: 'status', message: `from ${from} to ${to} is not allowed` },
  ])

export const shipmentOnAnotherPlan = (code: string) =>
  conflict(
    'shipment_on_another_plan',
    `The shipment is already on delivery plan ${code}; remove it there first.`,
  )
