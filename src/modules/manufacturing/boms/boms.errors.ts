import { AppError, conflict, invalidField, invalidTransition, notFound } from '../../../errors.js'
import type { BomStatus } from './boms.schemas.js'

/** The BOM module's error codes (tests assert these, never the message). */
export const bomNotFound = () => notFound('bom_not_found', 'No BOM of this business has this id.')
export const lineNotFound = () => notFound('bom_line_not_found', 'This BOM has no line item with this id.')

export const bomNotEditable = (status: BomStatus) =>
  conflict(
    'bom_not_editable',
    `A ${status} BOM cannot be changed; revise it into a new Draft revision instead.`,
  )

export const cannotActivate = (status: BomStatus) => invalidTransition('A BOM', status, 'Active', ['Draft'])

export const bomInUse = () =>
  conflict('bom_in_use', 'A work order used this BOM; it stays for their history.')
export const bomActive = () =>
  conflict('bom_active', 'The active BOM of a product cannot be deleted; activate another revision first.')

export const productNotUsable = (field: string) =>
  invalidField(field, 'must be a product of this business that is not a Service and not archived')

export const cycle = (field: string, path: readonly string[]) =>
  new AppError(400, 'bom_cycle', `This would make a cycle: ${path.join(' > ')}.`, [
    { field, message: `would make a cycle: ${path.join(' > ')}` },
  ])
