import type { EntryValues } from './ledger.repository.js'
import type { LedgerRow } from './stock.repository.js'
import type { LedgerEntryResponse } from './stock.schemas.js'

/** A ledger entry for the wire, with its running values (as shown: 10 and 4 places). */
export function toEntry(row: LedgerRow, values: EntryValues | undefined): LedgerEntryResponse {
  return {
    id: row.id,
    productId: row.product_id,
    type: row.type as LedgerEntryResponse['type'],
    quantity: Number(row.quantity),
    unitCost: Number(values?.unit_cost ?? 0),
    value: Number(values?.value ?? 0),
    effectiveDate: row.effective_date.toISOString(),
    reason: row.reason,
    reference: row.reference,
    workOrderId: row.work_order_id,
    balance: Number(values?.balance ?? 0),
    averageCost: Number(values?.average_cost ?? 0),
    createdByUserId: row.created_by_user_id,
    dateCreated: row.date_created.toISOString(),
  }
}
