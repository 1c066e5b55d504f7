import { AppError, conflict, invalidField, invalidTransition, notFound } from '../../../errors.js'
import type { WorkOrderStatus } from './work-orders.schemas.js'

/** The work orders module's error codes (tests assert these, never the message). */
export const workOrderNotFound = () =>
  notFound('work_order_not_found', 'No work order of this business has this id.')

export const invalidWorkOrderTransition = (
  from: WorkOrderStatus,
  to: WorkOrderStatus,
  allowedFrom: readonly WorkOrderStatus[],
) => invalidTransition('A work order', from, to, allowedFrom)

export const workOrderNotEditable = (status: string) =>
  conflict('work_order_not_editable', `A ${status} work order cannot be changed; only a Draft can.`)

export const bomNotActive = () => invalidField('bomId', 'must be an Active BOM of this business')

/** Components short at the completion's date: each with what it needs and what it has. */
export const componentShortfall = (
  items: readonly { sku: string; short: number; required: number; available: number }[],
) =>
  new AppError(
    409,
    'component_shortfall',
    `Not enough components: ${items.map((i) => `${i.sku} short by ${i.short}`).join(', ')}.`,
    items.map((i) => ({
      field: i.sku,
      message: `short by ${i.short} (needs ${i.required}, has ${i.available})`,
    })),
  )
