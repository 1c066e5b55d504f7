import type { Database } from '../../../db/database.js'
import { type PdfSpec, renderPdf } from '../../../http/pdf.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { getPurchaseOrder, type PurchaseOrderResponse } from '../purchase-orders/index.js'
import { type Parties, parties } from './purchase-order-document.repository.js'

const money = (value: number) => value.toFixed(2)
const addressText = (value: unknown) => {
  if (!value || typeof value !== 'object') return '-'
  const a = value as Record<string, unknown>
  const text = typeof a.fullAddress === 'string' && a.fullAddress.trim() ? a.fullAddress : undefined
  return (
    text ??
    (['street', 'city', 'postalCode', 'country']
      .map((k) => a[k])
      .filter((v) => typeof v === 'string' && v)
      .join(', ') ||
      '-')
  )
}

/** The purchase order as sent to the supplier: parties, terms, lines with their costs, the total. */
export function purchaseOrderSpec(order: PurchaseOrderResponse, who: Parties): PdfSpec {
  return {
    title: `Purchase order ${order.number}`,
    subtitle: who.registered_name || who.business_name,
    facts: [
      ['Supplier', `${order.supplier.name} (${order.supplier.code})`],
      ['Supplier address', addressText(who.supplier_address)],
      ['Supplier email', who.supplier_email ?? '-'],
      ['Status', order.status],
      ['Currency', order.currency],
      ['Payment terms', who.payment_terms ?? '-'],
      ['Expected delivery', order.expectedDate ?? '-'],
    ],
    tables: [
      {
        heading: 'Lines',
        columns: [
          { header: '#', width: 0.6, align: 'right' },
          { header: 'SKU', width: 2 },
          { header: 'Product', width: 4 },
          { header: 'Quantity', width: 1.5, align: 'right' },
          { header: 'Unit cost', width: 1.5, align: 'right' },
          { header: 'Line total', width: 1.8, align: 'right' },
        ],
        rows: order.lines.map((line) => [
          String(line.lineNumber),
          line.product.sku,
          line.product.name,
          String(line.quantity),
          String(line.unitCost),
          money(line.lineTotal),
        ]),
        footer: `Total ${order.currency} ${money(order.total)}`,
      },
    ],
    notes: order.notes ? [order.notes] : [],
  }
}

export async function purchaseOrderDocument(database: Database, auth: BusinessAuth, id: string) {
  const order = await getPurchaseOrder(database, auth, id)
  const who = await parties(database.db, auth.schemaName, auth.businessId, order.supplierId)
  return { name: `${order.number}.pdf`, pdf: await renderPdf(purchaseOrderSpec(order, who)) }
}
