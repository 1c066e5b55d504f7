import { type Reason, validationFailed } from '../../../errors.js'
import { ledgerDateProblem } from '../../../http/business-dates.js'
import { decimalReasons } from '../decimals.js'
import type { Movement } from './ledger.service.js'
import type { StockMovementRequest } from './stock.schemas.js'

/** An effective date sent by a client: default now; from 1970-01-01, never in the future. */
export function effectiveDateOf(value: string | undefined, field = 'effectiveDate'): Date {
  const reasons: Reason[] = []
  const date = checkedEffectiveDate(value, field, reasons)
  if (reasons.length > 0) throw validationFailed(reasons)
  return date
}

function checkedEffectiveDate(value: string | undefined, field: string, reasons: Reason[]): Date {
  if (value === undefined) return new Date()
  const date = new Date(value)
  const problem = ledgerDateProblem(date)
  if (problem) reasons.push({ field, message: problem })
  return date
}

/**
 * A movement as sent, checked beyond its schema; each reason names its field after `prefix`
 * (`movements.3.` in a bulk request). Returns null with the reasons when it is not valid.
 */
export function checkMovement(
  request: StockMovementRequest,
  prefix = '',
): { movement: Movement | null; reasons: Reason[] } {
  const reasons = [
    ...decimalReasons({ quantity: request.quantity }, 4, prefix),
    ...decimalReasons({ unitCost: request.unitCost }, 6, prefix),
  ]
  const cost = request.unitCost ?? null
  const { type, quantity } = request
  const reason = (field: string, message: string) => reasons.push({ field: `${prefix}${field}`, message })
  if (type !== 'Adjustment' && quantity <= 0) reason('quantity', 'must be greater than 0')
  if (type === 'Adjustment' && quantity === 0) reason('quantity', 'must not be 0')
  if (type === 'Receipt' && cost === null) reason('unitCost', 'is required on a Receipt')
  if (type === 'Issue' && cost !== null) reason('unitCost', 'an Issue moves at the moving average')
  if (type === 'Adjustment' && quantity < 0 && cost !== null)
    reason('unitCost', 'a negative Adjustment moves at the moving average')
  const effectiveDate = checkedEffectiveDate(request.effectiveDate, `${prefix}effectiveDate`, reasons)
  if (reasons.length > 0) return { movement: null, reasons }
  const movement: Movement = {
    type,
    quantity: type === 'Issue' ? -quantity : quantity,
    receivedCost: cost,
    effectiveDate,
    reason: request.reason?.trim() || null,
    reference: request.reference?.trim() || null,
    workOrderId: null,
  }
  return { movement, reasons }
}
