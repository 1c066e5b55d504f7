import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'

export const SHORT_CONFIRMATION = ['Backorder', 'Refuse'] as const

const Day = (description: string) => Type.String({ format: 'date', description })

export const ReservationLineResponse = Type.Object(
  {
    orderLineId: Uuid(),
    lineNumber: Type.Integer(),
    productId: Uuid(),
    ordered: Type.Number(),
    reserved: Type.Number({ description: 'held of the stock on hand for this line now' }),
    backordered: Type.Number({ description: 'short at confirmation and not shipped since' }),
    shipped: Type.Number({ description: 'on dispatched shipments so far' }),
  },
  { title: 'ReservationLineResponse' },
)

export const OrderReservationsResponse = Type.Object(
  {
    orderId: Uuid(),
    status: Type.String({ description: "the order's status" }),
    lines: Type.Array(ReservationLineResponse, {
      description: 'the lines of stocked products while the order holds stock, in line order',
    }),
  },
  { title: 'OrderReservationsResponse' },
)
export type OrderReservationsResponse = Static<typeof OrderReservationsResponse>

export const IncomingStockResponse = Type.Object(
  {
    source: Type.Union([
      Type.Literal('PurchaseOrder'),
      Type.Literal('TransferOrder'),
      Type.Literal('WorkOrder'),
    ]),
    reference: Type.String({ description: 'the purchase order number, transfer number or work order code' }),
    date: Nullable(
      Day(
        'expected (purchase order), shipped (transfer in transit) or planned end (work order); null when the purchase order gives none',
      ),
    ),
    quantity: Type.Number({ description: 'still to come' }),
  },
  { title: 'IncomingStockResponse' },
)

export const AvailabilityResponse = Type.Object(
  {
    productId: Uuid(),
    onHand: Type.Number(),
    reserved: Type.Number({ description: 'held by confirmed orders' }),
    available: Type.Number({
      description: 'onHand - reserved (below zero when stock left without its reservation)',
    }),
    backordered: Type.Number({ description: 'confirmed but short: the first claim on incoming stock' }),
    incoming: Type.Array(IncomingStockResponse, { description: 'earliest first, undated last' }),
  },
  { title: 'AvailabilityResponse' },
)
export type AvailabilityResponse = Static<typeof AvailabilityResponse>

export const PromiseQuery = Type.Object({
  quantity: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000_000, description: 'greater than 0' }),
  date: Type.Optional(Day('the day asked for (default today, UTC)')),
})
export type PromiseQuery = Static<typeof PromiseQuery>

export const PromiseResponse = Type.Object(
  {
    productId: Uuid(),
    quantity: Type.Number(),
    date: Day('the day asked for'),
    promisable: Type.Boolean({ description: 'true when the quantity can be promised on that day' }),
    earliestDate: Nullable(
      Day(
        'the earliest day the quantity can be promised: available now less backorders, plus dated incoming stock; null when even all of it falls short',
      ),
    ),
    free: Type.Number({ description: 'available now less backorders' }),
  },
  { title: 'PromiseResponse' },
)
export type PromiseResponse = Static<typeof PromiseResponse>

export const ProductIdParams = Type.Object({ productId: Uuid() })
export const OrderIdParams = Type.Object({ orderId: Uuid() })
