import { type Static, Type } from '@sinclair/typebox'
import { BUSINESS_DATE_RULE, LEDGER_DATE_RULE } from '../../../http/business-dates.js'
import { EnumType } from '../../../http/enums.js'
import { ListQuery } from '../../../http/list-params.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

/** Largest quantity accepted: the ledger's limit (numeric(18, 4) with room for quantity × cost). */
export const MAX_QUANTITY = 1_000_000_000
export const MAX_LINES = 200

export const TRANSFER_ORDER_STATUSES = [
  'Draft',
  'Shipped',
  'PartiallyReceived',
  'Received',
  'Cancelled',
] as const
export type TransferOrderStatus = (typeof TRANSFER_ORDER_STATUSES)[number]
export const TransferOrderStatusType = EnumType(TRANSFER_ORDER_STATUSES, {
  description:
    'Draft -> Shipped -> PartiallyReceived -> Received (a receipt of everything outstanding goes straight to Received); Draft -> Cancelled.',
})

export const TRANSFER_DIRECTIONS = ['Outgoing', 'Incoming'] as const
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number]
export const TransferDirectionType = EnumType(TRANSFER_DIRECTIONS, {
  description: 'Outgoing: the calling business is the source; Incoming: it is the destination.',
})

const Quantity = (description: string) =>
  Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_QUANTITY,
    description: `${description}; at most 4 decimal places`,
  })

export const TransferOrderLineRequest = Type.Object(
  {
    productId: Uuid({ description: 'a stocked product of the source business (the calling business)' }),
    destinationProductId: Type.Optional(
      Nullable(
        Uuid({
          description:
            'the product of the destination business that receives it; default: the destination product with the same SKU (letter case ignored)',
        }),
      ),
    ),
    quantity: Quantity('units to move'),
  },
  { title: 'TransferOrderLineRequest' },
)

export const TransferOrderRequest = Type.Object(
  {
    destinationBusinessId: Uuid({
      description: 'another business of the organisation, the one the stock goes to',
    }),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    lines: Type.Array(TransferOrderLineRequest, { minItems: 1, maxItems: MAX_LINES }),
  },
  {
    title: 'TransferOrderRequest',
    description:
      'A line whose destination product cannot be found (no destinationProductId and no product with the same SKU in the destination business, or an id that is not a product of the destination business) is a 400 naming lines.<n>.destinationProductId.',
  },
)
export type TransferOrderRequest = Static<typeof TransferOrderRequest>

export const ShipTransferOrderRequest = Type.Object(
  {
    effectiveDate: Type.Optional(
      DateTime({
        description: `when the goods left: the issues enter the source ledger at that date (a back-dated issue re-values the later entries); default now; ${LEDGER_DATE_RULE}`,
      }),
    ),
  },
  {
    title: 'ShipTransferOrderRequest',
    description:
      'Issues every line from the source at its moving-average cost at effectiveDate, in one transaction; a line short at any point in time from then on is a 409 stock_shortfall naming lines.<n>.quantity, nothing posted.',
  },
)
export type ShipTransferOrderRequest = Static<typeof ShipTransferOrderRequest>

export const TransferReceiptLineRequest = Type.Object(
  {
    lineId: Uuid({ description: 'a line of this transfer order' }),
    quantity: Quantity('units that arrived, at most what is still in transit on the line'),
  },
  { title: 'TransferReceiptLineRequest' },
)

export const ReceiveTransferOrderRequest = Type.Object(
  {
    effectiveDate: Type.Optional(
      DateTime({
        description: `when the goods arrived: the receipts enter the destination ledger at that date; default now, not before the ship date; ${LEDGER_DATE_RULE}`,
      }),
    ),
    lines: Type.Optional(
      Type.Array(TransferReceiptLineRequest, {
        minItems: 1,
        maxItems: MAX_LINES,
        description: 'what arrived; default: everything still in transit',
      }),
    ),
  },
  {
    title: 'ReceiveTransferOrderRequest',
    description:
      'Posts each line into the destination business at the unit cost it left with (to 6 decimal places, the precision of a receipt cost), in one transaction.',
  },
)
export type ReceiveTransferOrderRequest = Static<typeof ReceiveTransferOrderRequest>

export const TransferOrderParams = Type.Object({ transferOrderId: Uuid() })

export const TransferOrdersQuery = Type.Object({
  ...ListQuery.properties,
  direction: Type.Optional(TransferDirectionType),
})
export type TransferOrdersQuery = Static<typeof TransferOrdersQuery>

const ProductRef = Type.Object({ id: Uuid(), sku: Type.String(), name: Type.String() })

export const TransferOrderLineResponse = Type.Object(
  {
    id: Uuid(),
    lineNumber: Type.Integer(),
    productId: Uuid({ description: 'the source product' }),
    product: ProductRef,
    destinationProductId: Uuid(),
    destinationProduct: ProductRef,
    quantity: Type.Number(),
    unitCost: Nullable(
      Type.Number({
        description: 'the moving-average cost it left with (10 decimal places); null until shipped',
      }),
    ),
    quantityShipped: Type.Number({ description: 'quantity once shipped, else 0' }),
    quantityReceived: Type.Number(),
    quantityInTransit: Type.Number({ description: 'quantityShipped - quantityReceived' }),
    valueInTransit: Type.Number({ description: 'quantityInTransit × unitCost, 4 decimal places' }),
  },
  { title: 'TransferOrderLineResponse' },
)
export type TransferOrderLineResponse = Static<typeof TransferOrderLineResponse>

export const TransferReceiptResponse = Type.Object(
  {
    id: Uuid(),
    effectiveDate: DateTime({ description: 'the ledger date of the receipt' }),
    lines: Type.Array(Type.Object({ lineId: Uuid(), quantity: Type.Number() })),
    createdByUserId: Nullable(Uuid()),
    dateCreated: DateTime(),
  },
  { title: 'TransferReceiptResponse' },
)
export type TransferReceiptResponse = Static<typeof TransferReceiptResponse>

export const TransferOrderResponse = Type.Object(
  {
    id: Uuid(),
    number: Type.String({ description: 'TO-000001, per source business' }),
    sourceBusinessId: Uuid(),
    destinationBusinessId: Uuid(),
    direction: TransferDirectionType,
    status: TransferOrderStatusType,
    notes: Nullable(Type.String()),
    shippedAt: Nullable(DateTime({ description: 'the ledger date of the issue out of the source' })),
    receivedAt: Nullable(DateTime({ description: 'the ledger date of the receipt that completed it' })),
    cancelledAt: Nullable(DateTime()),
    shipmentId: Nullable(Uuid({ description: 'the shipment created for it, if any' })),
    lines: Type.Array(TransferOrderLineResponse),
    valueInTransit: Type.Number({ description: 'sum of the lines’ valueInTransit' }),
    receipts: Type.Array(TransferReceiptResponse, { description: 'oldest first' }),
    createdByUserId: Nullable(Uuid()),
    dateCreated: DateTime(),
    dateModified: DateTime(),
  },
  { title: 'TransferOrderResponse' },
)
export type TransferOrderResponse = Static<typeof TransferOrderResponse>

export const InTransitQuery = Type.Object({
  ...ListQuery.properties,
  direction: Type.Optional(TransferDirectionType),
})
export type InTransitQuery = Static<typeof InTransitQuery>

export const InTransitLineResponse = Type.Object(
  {
    transferOrderId: Uuid(),
    number: Type.String(),
    direction: TransferDirectionType,
    sourceBusinessId: Uuid(),
    destinationBusinessId: Uuid(),
    lineId: Uuid(),
    productId: Uuid({ description: 'the source product' }),
    sku: Type.String({ description: 'the source product’s SKU' }),
    name: Type.String(),
    destinationProductId: Uuid(),
    quantityInTransit: Type.Number(),
    unitCost: Type.Number({ description: 'the cost it left with, 10 decimal places' }),
    value: Type.Number({ description: 'quantityInTransit × unitCost, 4 decimal places' }),
    shippedAt: DateTime(),
  },
  { title: 'InTransitLineResponse' },
)
export type InTransitLineResponse = Static<typeof InTransitLineResponse>

export const TransferShipmentRequest = Type.Object(
  {
    deliveryPlanId: Type.Optional(
      Nullable(
        Uuid({
          description:
            'a Draft or Scheduled delivery plan of the source business: the shipment is added to it as its last stop',
        }),
      ),
    ),
    weight: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'kg' }))),
    volume: Type.Optional(
      Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'cubic metres' })),
    ),
    scheduledDate: Type.Optional(
      Nullable(
        DateTime({
          description: `when it should be delivered (the shipment’s scheduledDate); ${BUSINESS_DATE_RULE}`,
        }),
      ),
    ),
  },
  {
    title: 'TransferShipmentRequest',
    description:
      "Creates a Pending shipment of the source business from the source business's address (pickup) to the destination business's address (delivery), linked to the transfer (shipmentId), in one transaction with adding it to deliveryPlanId when given.",
  },
)
export type TransferShipmentRequest = Static<typeof TransferShipmentRequest>
