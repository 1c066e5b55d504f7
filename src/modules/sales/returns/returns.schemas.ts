import { type Static, Type } from '@sinclair/typebox'
import { LEDGER_DATE_RULE } from '../../../http/business-dates.js'
import { EnumType } from '../../../http/enums.js'
import { ListQuery } from '../../../http/list-params.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

/** Largest quantity accepted: the ledger's limit. */
export const MAX_QUANTITY = 1_000_000_000
export const MAX_LINES = 200

export const RETURN_STATUSES = ['Requested', 'Received', 'WrittenOff', 'Cancelled'] as const
export type ReturnStatus = (typeof RETURN_STATUSES)[number]
export const ReturnStatusType = EnumType(RETURN_STATUSES, {
  description:
    'Requested -> Received (goods back in stock) or WrittenOff (no stock back); Requested -> Cancelled. Received and WrittenOff are credited on the order.',
})

export const ReturnLineRequest = Type.Object(
  {
    productId: Uuid({
      description: 'a product delivered on the shipment (or on the order’s delivered shipments)',
    }),
    quantity: Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_QUANTITY,
      description:
        'at most what was delivered of the product less what other returns (not cancelled) already take; at most 4 decimal places',
    }),
    reason: Type.Optional(
      Nullable(Type.String({ maxLength: 500, description: 'default: the return’s reason' })),
    ),
  },
  { title: 'ReturnLineRequest' },
)

export const CreateReturnRequest = Type.Object(
  {
    shipmentId: Type.Optional(
      Nullable(
        Uuid({ description: 'a Delivered shipment of this business; shipmentId or orderId is required' }),
      ),
    ),
    orderId: Type.Optional(
      Nullable(
        Uuid({ description: 'an order of this business: what its Delivered shipments carried of its lines' }),
      ),
    ),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'why the goods come back' }),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    lines: Type.Array(ReturnLineRequest, {
      minItems: 1,
      maxItems: MAX_LINES,
      description: 'one per product',
    }),
  },
  {
    title: 'CreateReturnRequest',
    description:
      'Each line is taken from the delivered shipment lines of its product, oldest first, and stored as one line per shipment line it takes from (each keeps the cost that line left stock with and its order line’s unit price).',
  },
)
export type CreateReturnRequest = Static<typeof CreateReturnRequest>

export const ReceiveReturnRequest = Type.Object(
  {
    receivedAt: Type.Optional(
      DateTime({
        description: `when the goods came back: the SaleReturn entries enter the ledger at that date; default now, not before the goods left; ${LEDGER_DATE_RULE}`,
      }),
    ),
  },
  { title: 'ReceiveReturnRequest' },
)
export type ReceiveReturnRequest = Static<typeof ReceiveReturnRequest>

export const ReturnParams = Type.Object({ returnId: Uuid() })
export const OrderReturnsParams = Type.Object({ orderId: Uuid() })
export const ReturnsQuery = ListQuery

export const ReturnLineResponse = Type.Object(
  {
    id: Uuid(),
    lineNumber: Type.Integer(),
    productId: Uuid(),
    sku: Type.String(),
    name: Type.String(),
    quantity: Type.Number(),
    shipmentId: Uuid({ description: 'the shipment the goods were delivered on' }),
    shipmentLineId: Uuid(),
    orderLineId: Nullable(Uuid()),
    unitPrice: Type.Number({ description: 'the order line’s unit price; 0 for a line shipped on its own' }),
    value: Type.Number({ description: 'quantity × unitPrice, 4 decimal places' }),
    unitCost: Type.Number({
      description: 'the exact cost it left stock with (10 decimal places): it comes back at it',
    }),
    leftAt: DateTime({ description: 'when it left stock' }),
    reason: Nullable(Type.String()),
    ledgerEntryId: Nullable(Uuid({ description: 'the SaleReturn entry, once received' })),
  },
  { title: 'ReturnLineResponse' },
)
export type ReturnLineResponse = Static<typeof ReturnLineResponse>

export const ReturnResponse = Type.Object(
  {
    id: Uuid(),
    number: Type.String({ description: 'RMA-000001, per business' }),
    status: ReturnStatusType,
    orderId: Nullable(Uuid({ description: 'the order credited' })),
    orderCode: Nullable(Type.String()),
    shipmentId: Nullable(Uuid({ description: 'the shipment it was requested against, if one' })),
    customerId: Nullable(Uuid()),
    reason: Type.String(),
    notes: Nullable(Type.String()),
    value: Type.Number({
      description: 'the sum of the lines’ value: credited on the order once Received or WrittenOff',
    }),
    credited: Type.Boolean({ description: 'Received or WrittenOff' }),
    lines: Type.Array(ReturnLineResponse),
    receivedAt: Nullable(DateTime({ description: 'the ledger date the goods came back' })),
    writtenOffAt: Nullable(DateTime()),
    cancelledAt: Nullable(DateTime()),
    createdByUserId: Nullable(Uuid()),
    dateCreated: DateTime(),
    dateModified: DateTime(),
  },
  { title: 'ReturnResponse' },
)
export type ReturnResponse = Static<typeof ReturnResponse>
