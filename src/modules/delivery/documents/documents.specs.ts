import type { PdfSpec } from '../../../http/pdf.js'
import type { DeliveryProof, NoteShipment, SheetPlan, SheetStop } from './documents.repository.js'

/** What a shipment carries, product by product, when its lines are known. */
export interface DocumentLine {
  sku: string
  name: string
  quantity: number
}

const amount = (value: string | null, unit: string) => (value === null ? '-' : `${Number(value)} ${unit}`)
const when = (value: Date | null) =>
  value ? `${value.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '-'
const day = (value: Date | string | null) =>
  value === null ? '-' : typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10)
const addressText = (value: unknown) => {
  if (!value || typeof value !== 'object') return '-'
  const text = (value as { fullAddress?: unknown }).fullAddress
  return typeof text === 'string' && text.trim() ? text : '-'
}
const sum = (values: readonly (string | null)[]) =>
  Number(values.reduce((total, v) => total + (v === null ? 0 : Number(v)), 0).toFixed(4))

const LINE_COLUMNS = [
  { header: 'SKU', width: 2 },
  { header: 'Product', width: 5 },
  { header: 'Quantity', width: 1.5, align: 'right' as const },
]
const lineRows = (lines: readonly DocumentLine[]) => lines.map((l) => [l.sku, l.name, String(l.quantity)])

/** The delivery note: what was sent to whom, and once delivered who took it, when and where. */
export function deliveryNoteSpec(
  shipment: NoteShipment,
  proof: DeliveryProof | undefined,
  signature: Buffer | undefined,
  lines?: readonly DocumentLine[],
): PdfSpec {
  const facts: [string, string][] = [
    ['From', shipment.business_name],
    ['Customer', shipment.customer_name ?? '-'],
    ['Deliver to', addressText(shipment.delivery_address)],
    ['Delivery plan', shipment.plan_code ?? '-'],
    ['Expected', day(shipment.plan_date ?? shipment.scheduled_date)],
    ['Status', shipment.status],
    ['Weight', amount(shipment.weight, 'kg')],
    ['Volume', amount(shipment.volume, 'm3')],
  ]
  if (shipment.notes) facts.push(['Notes', shipment.notes])
  const spec: PdfSpec = {
    title: `Delivery note ${shipment.code}`,
    subtitle: shipment.business_name,
    facts,
    tables: lines?.length ? [{ heading: 'Goods', columns: LINE_COLUMNS, rows: lineRows(lines) }] : [],
  }
  if (!proof) return spec
  return {
    ...spec,
    tables: [
      ...(spec.tables ?? []),
      {
        heading: 'Proof of delivery',
        columns: [
          { header: 'Received by', width: 3 },
          { header: 'Delivered at', width: 3 },
          { header: 'Point', width: 3 },
          { header: 'Photos', width: 1, align: 'right' },
        ],
        rows: [
          [
            proof.recipient_name ?? '-',
            when(proof.occurred_at),
            proof.latitude === null ? '-' : `${Number(proof.latitude)}, ${Number(proof.longitude)}`,
            String(proof.photo_file_ids.length),
          ],
        ],
      },
    ],
    images: signature ? [{ label: 'Signature', data: signature }] : [],
    notes: proof.note ? [`Driver's note: ${proof.note}`] : [],
  }
}

const planFacts = (plan: SheetPlan, stops: readonly SheetStop[]): [string, string][] => [
  ['Date', day(plan.scheduled_date)],
  ['Vehicle', plan.registration ?? '-'],
  ['Driver', plan.driver_name ?? '-'],
  ['Stops', String(stops.length)],
  ['Distance', amount(plan.distance_km, 'km')],
  ['Total weight', `${sum(stops.map((s) => s.weight))} kg`],
]

/** The route sheet: the plan's stops in order, for the driver. */
export function routeSheetSpec(plan: SheetPlan, stops: readonly SheetStop[]): PdfSpec {
  return {
    title: `Route sheet ${plan.code}`,
    subtitle: [plan.business_name, plan.name].filter(Boolean).join(' - '),
    facts: planFacts(plan, stops),
    tables: [
      {
        heading: 'Stops in order',
        columns: [
          { header: 'Stop', width: 0.8, align: 'right' },
          { header: 'Shipment', width: 2 },
          { header: 'Customer', width: 2.5 },
          { header: 'Address', width: 4 },
          { header: 'Weight', width: 1.3, align: 'right' },
          { header: 'Signature', width: 2 },
        ],
        rows: stops.map((s, i) => [
          String(s.stop_sequence ?? i + 1),
          s.code,
          s.customer_name ?? '-',
          addressText(s.delivery_address),
          amount(s.weight, 'kg'),
          '',
        ]),
      },
    ],
  }
}

/**
 * The pick list: what to load for each stop, in stop order (last stop loaded first is the
 * loader's choice). With the shipments' lines, each line of each stop, and the totals by product.
 */
export function pickListSpec(
  plan: SheetPlan,
  stops: readonly SheetStop[],
  lines?: ReadonlyMap<string, readonly DocumentLine[]>,
): PdfSpec {
  const tables: PdfSpec['tables'] = lines?.size
    ? [
        {
          heading: 'By product',
          columns: LINE_COLUMNS,
          rows: lineRows(totalsByProduct([...lines.values()].flat())),
        },
        {
          heading: 'By stop',
          columns: [
            { header: 'Stop', width: 0.8, align: 'right' },
            { header: 'Shipment', width: 2 },
            ...LINE_COLUMNS,
          ],
          rows: stops.flatMap((s, i) =>
            (lines.get(s.id) ?? []).map((l) => [
              String(s.stop_sequence ?? i + 1),
              s.code,
              l.sku,
              l.name,
              String(l.quantity),
            ]),
          ),
        },
      ]
    : [
        {
          heading: 'By stop',
          columns: [
            { header: 'Stop', width: 0.8, align: 'right' },
            { header: 'Shipment', width: 2 },
            { header: 'Customer', width: 3 },
            { header: 'Weight', width: 1.3, align: 'right' },
            { header: 'Volume', width: 1.3, align: 'right' },
            { header: 'Picked', width: 1 },
          ],
          rows: stops.map((s, i) => [
            String(s.stop_sequence ?? i + 1),
            s.code,
            s.customer_name ?? '-',
            amount(s.weight, 'kg'),
            amount(s.volume, 'm3'),
            '[ ]',
          ]),
          footer: `Total: ${sum(stops.map((s) => s.weight))} kg, ${sum(stops.map((s) => s.volume))} m3`,
        },
      ]
  return {
    title: `Pick list ${plan.code}`,
    subtitle: plan.business_name,
    facts: planFacts(plan, stops),
    tables,
  }
}

function totalsByProduct(lines: readonly DocumentLine[]): DocumentLine[] {
  const totals = new Map<string, DocumentLine>()
  for (const line of lines) {
    const seen = totals.get(line.sku)
    totals.set(
      line.sku,
      seen ? { ...seen, quantity: Number((seen.quantity + line.quantity).toFixed(4)) } : { ...line },
    )
  }
  return [...totals.values()].sort((a, b) => a.sku.localeCompare(b.sku))
}
