import { addBusiness } from '../../../../test/fixtures.js'
import { type Core, coreAs, ownerSession, type TestContext } from '../../../../test/harness.js'
import { createProduct, ok, receive, sku } from '../../manufacturing/manufacturing.fixtures.js'

/** Test helpers for transfer orders: an organisation with a head office and a branch, both signed in. */

export interface TransferLine {
  id: string
  lineNumber: number
  productId: string
  destinationProductId: string
  quantity: number
  unitCost: number | null
  quantityShipped: number
  quantityReceived: number
  quantityInTransit: number
  valueInTransit: number
}

export interface TransferOrder {
  id: string
  number: string
  status: string
  direction: string
  sourceBusinessId: string
  destinationBusinessId: string
  shippedAt: string | null
  receivedAt: string | null
  shipmentId: string | null
  valueInTransit: number
  lines: TransferLine[]
  receipts: { id: string; effectiveDate: string; lines: { lineId: string; quantity: number }[] }[]
}

/** A registered organisation with a branch: `head` acts in the head office, `branch` in the branch. */
export async function headAndBranch(ctx: TestContext) {
  const owner = await ownerSession(ctx)
  const branchId = await addBusiness(ctx, owner.org.businessId)
  const branch: Core = coreAs(ctx, { accessToken: owner.signedIn.accessToken, businessId: branchId })
  return { owner, head: owner.core, headId: owner.org.businessId, branch, branchId }
}

/** The same SKU in both businesses; the source side received `quantity` at `unitCost` on `date`. */
export async function productPair(
  head: Core,
  branch: Core,
  quantity: number,
  unitCost: number,
  date: string,
) {
  const code = sku('TR')
  const source = await createProduct(head, { sku: code })
  const destination = await createProduct(branch, { sku: code.toLowerCase() })
  if (quantity > 0) await receive(head, source.id, quantity, unitCost, date)
  return { source, destination, sku: code }
}

export const createTransfer = (core: Core, body: Record<string, unknown>) =>
  ok<TransferOrder>(core, 'POST', '/api/v1/transfer-orders', body)

export const ship = (core: Core, id: string, body: Record<string, unknown> = {}) =>
  ok<TransferOrder>(core, 'POST', `/api/v1/transfer-orders/${id}/ship`, body)

export const receiveTransfer = (core: Core, id: string, body: Record<string, unknown> = {}) =>
  ok<TransferOrder>(core, 'POST', `/api/v1/transfer-orders/${id}/receipts`, body)

/** ISO date-time `days` from now (negative: in the past). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()
