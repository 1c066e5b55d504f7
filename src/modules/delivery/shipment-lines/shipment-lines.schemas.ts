import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'

export const MAX_QUANTITY = 1_000_000_000

export const ShipmentLineInput = Type.Object({
  orderLineId: Type.Optional(
    Nullable(
      Uuid({
        description:
          "a line of a Confirmed or PartiallyFulfilled order of this business (the shipment's order, when it has one); its product is shipped",
      }),
    ),
  ),
  productId: Type.Optional(
    Nullable(
      Uuid({ description: 'a stocked product of this business; orderLineId or productId is required' }),
    ),
  ),
  quantity: Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_QUANTITY,
    description: 'greater than 0, at most 4 decimal places; from an order line, at most what is left of it',
  }),
  package: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'the package it is packed into' })),
  ),
})
export type ShipmentLineInput = Static<typeof ShipmentLineInput>

export const ReplaceShipmentLinesRequest = Type.Object(
  { lines: Type.Array(ShipmentLineInput, { maxItems: 500, description: 'numbered 1..n in the order sent' }) },
  { title: 'ReplaceShipmentLinesCommand' },
)
export type ReplaceShipmentLinesRequest = Static<typeof ReplaceShipmentLinesRequest>

export const PackLineRequest = Type.Object(
  { package: Nullable(Type.String({ maxLength: 100, description: 'null: not packed' })) },
  { title: 'PackShipmentLineCommand' },
)

export const ShipmentLineResponse = Type.Object(
  {
    id: Uuid(),
    lineNumber: Type.Integer(),
    orderLineId: Nullable(Uuid()),
    productId: Uuid(),
    sku: Type.String(),
    name: Type.String(),
    quantity: Type.Number(),
    package: Nullable(Type.String()),
    unitCost: Nullable(
      Type.Number({ description: 'the moving-average cost it left stock with; null until dispatched' }),
    ),
    returned: Type.Boolean({
      description: 'put back into stock (the shipment was cancelled after dispatch)',
    }),
  },
  { title: 'ShipmentLineResponse' },
)

export const ShipmentLinesResponse = Type.Object(
  {
    shipmentId: Uuid(),
    status: Type.String({ description: "the shipment's status" }),
    lines: Type.Array(ShipmentLineResponse),
    linesWeight: Nullable(
      Type.Number({
        description:
          "kg: sum of quantity × the product's weight in its unit (none: kg); null when a product has no weight",
      }),
    ),
    linesVolume: Nullable(
      Type.Number({
        description:
          "m³: sum of quantity × the product's length × width × height in its unit; null when one is missing",
      }),
    ),
  },
  { title: 'ShipmentLinesResponse' },
)
export type ShipmentLinesResponse = Static<typeof ShipmentLinesResponse>

const PickLine = Type.Object({
  lineNumber: Type.Integer(),
  productId: Uuid(),
  sku: Type.String(),
  name: Type.String(),
  quantity: Type.Number(),
  package: Nullable(Type.String()),
})

export const PickListResponse = Type.Object(
  {
    deliveryPlanId: Uuid(),
    code: Type.String(),
    status: Type.String({ description: "the plan's status" }),
    byProduct: Type.Array(
      Type.Object({
        productId: Uuid(),
        sku: Type.String(),
        name: Type.String(),
        unitOfMeasure: Type.String(),
        quantity: Type.Number({ description: 'to pick for the whole plan' }),
        stops: Type.Integer({ description: 'how many stops take it' }),
      }),
      { description: 'by SKU' },
    ),
    byStop: Type.Array(
      Type.Object({
        stopSequence: Nullable(Type.Integer()),
        shipmentId: Uuid(),
        code: Type.String(),
        customerName: Nullable(Type.String()),
        lines: Type.Array(PickLine),
      }),
      { description: 'in stop order' },
    ),
  },
  { title: 'PickListResponse' },
)
export type PickListResponse = Static<typeof PickListResponse>

export const ShipmentParams = Type.Object({ shipmentId: Uuid() })
export const ShipmentLineParams = Type.Object({ shipmentId: Uuid(), lineId: Uuid() })
export const PlanParams = Type.Object({ deliveryPlanId: Uuid() })
