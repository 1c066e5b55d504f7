import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  cancelOrderMutation,
  confirmOrderMutation,
  fulfillOrderMutation,
  getOrderOptions,
  getOrderReservationsOptions,
  getOrderReturnsOptions,
  getProductOptions,
  getShipmentsOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { GetOrderResponses, GetShipmentsResponses } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Loaded } from '../../components/Loaded'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { PdfButton } from '../../components/PdfButton'
import { Status } from '../../components/Status'
import { pdfName } from '../../lib/documents'
import { dateTime, day, money, quantity } from '../../lib/format'
import { quoted } from '../../lib/odata'
import { ReturnForm } from '../returns/ReturnForm'
import { OrderForm } from './OrderForm'
import { lineProblems, type OrderMove, orderMoves } from './order-logic'

type Order = GetOrderResponses[200]['data']
type OrderLine = Order['lines'][number]
type Shipment = GetShipmentsResponses[200]['data'][number]

const MOVE_LABEL: Record<OrderMove, string> = {
  confirm: 'Confirm (reserve stock)',
  fulfill: 'Mark fulfilled',
  cancel: 'Cancel order',
}

/** Queries an order's changes touch: the order, what it holds, the lists, the products' figures. */
const AFFECTED = [
  'getOrder',
  'getOrders',
  'getOrderReservations',
  'getOrderReturns',
  'getReturns',
  'getShipments',
  'getProductAvailability',
]

/** One sales order: its lines with what they hold and shipped, its moves, shipments and returns. */
export default function OrderDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const path = { orderId: id }
  const order = useQuery(getOrderOptions({ path }))
  const refresh = () =>
    Promise.all(AFFECTED.map((_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] })))
  const confirm = useMutation({ ...confirmOrderMutation(), onSuccess: refresh })
  const fulfill = useMutation({ ...fulfillOrderMutation(), onSuccess: refresh })
  const cancel = useMutation({ ...cancelOrderMutation(), onSuccess: refresh })
  const all = { confirm, fulfill, cancel }
  const error = Object.values(all).find((m) => m.error)?.error
  const busy = Object.values(all).some((m) => m.isPending)
  const o = order.data?.data
  const [editing, setEditing] = useState(false)
  const products = useLineProducts(o?.lines ?? [])

  if (order.error)
    return (
      <>
        <PageHeader title="Sales order" />
        <ErrorNotice error={order.error} what="Loading the order" onRetry={() => void order.refetch()} />
        <Link href="/orders">Back to sales orders</Link>
      </>
    )
  if (!o) return <Loading label="Loading the order…" />
  const canModify = can('Orders', 'Modify')
  const moves = canModify ? orderMoves(o.status) : []
  const run = (move: OrderMove) => {
    for (const m of Object.values(all)) m.reset()
    all[move].mutate({ path })
  }
  return (
    <>
      <p className="breadcrumb">
        <Link href="/orders">Sales orders</Link> / {o.code}
      </p>
      <PageHeader title={`Sales order ${o.code}`}>
        <Status value={o.status} />
        {canModify && (o.status === 'Draft' || o.status === 'Confirmed') && !editing && (
          <button type="button" className="secondary" disabled={busy} onClick={() => setEditing(true)}>
            Edit order
          </button>
        )}
        {moves.map((move) => (
          <button
            key={move}
            type="button"
            className={move === 'cancel' ? 'danger' : move === 'fulfill' ? 'secondary' : undefined}
            disabled={busy}
            onClick={() => run(move)}
          >
            {MOVE_LABEL[move]}
          </button>
        ))}
      </PageHeader>
      {error ? <ErrorNotice error={error} what="Changing the order" /> : null}
      {editing && (
        <OrderForm
          order={o}
          productLabels={new Map([...products].map(([pid, p]) => [pid, `${p.sku} ${p.name}`]))}
          onDone={() => setEditing(false)}
        />
      )}
      <section className="card" aria-labelledby="o-facts">
        <h2 id="o-facts">Order</h2>
        <dl className="facts">
          <dt>Customer</dt>
          <dd>
            <Link href={`/customers/${o.customerId}`}>{o.customer.name}</Link>
          </dd>
          <dt>Order date</dt>
          <dd>{day(o.orderDate)}</dd>
          <dt>Deliver to</dt>
          <dd>{o.deliveryAddress?.fullAddress ?? '—'}</dd>
          <dt>Total</dt>
          <dd data-testid="order-total">{money(o.total, o.currency)}</dd>
          <dt>Credited by returns</dt>
          <dd data-testid="order-returned-value">{money(o.returnedValue, o.currency)}</dd>
          {o.confirmedAt && (
            <>
              <dt>Confirmed</dt>
              <dd>{dateTime(o.confirmedAt)}</dd>
            </>
          )}
          {o.fulfilledAt && (
            <>
              <dt>Fulfilled</dt>
              <dd>{dateTime(o.fulfilledAt)}</dd>
            </>
          )}
          {o.cancelledAt && (
            <>
              <dt>Cancelled</dt>
              <dd>{dateTime(o.cancelledAt)}</dd>
            </>
          )}
          {o.notes && (
            <>
              <dt>Notes</dt>
              <dd>{o.notes}</dd>
            </>
          )}
        </dl>
      </section>
      <OrderLines order={o} problems={lineProblems(confirm.error)} />
      <OrderShipments order={o} />
      <OrderReturns order={o} />
    </>
  )
}

/** The products of the lines, for their SKU, name and unit. */
function useLineProducts(lines: readonly OrderLine[]) {
  const ids = [...new Set(lines.flatMap((line) => (line.productId ? [line.productId] : [])))]
  const products = useQueries({
    queries: ids.map((productId) => ({ ...getProductOptions({ path: { productId } }), staleTime: 60_000 })),
  })
  const byId = new Map<string, { sku: string; name: string; unit: string }>()
  for (const product of products) {
    const p = product.data?.data
    if (p) byId.set(p.id, { sku: p.sku, name: p.name, unit: p.unitOfMeasure })
  }
  return byId
}

function OrderLines({ order, problems }: { order: Order; problems: Map<number, string> }) {
  const products = useLineProducts(order.lines)
  const reservations = useQuery(getOrderReservationsOptions({ path: { orderId: order.id } }))
  const held = new Map((reservations.data?.data.lines ?? []).map((line) => [line.orderLineId, line]))
  const holds = order.status !== 'Draft' && order.status !== 'Cancelled'
  const figure = (
    line: OrderLine,
    pick: (r: { reserved: number; backordered: number; shipped: number }) => number,
  ) => {
    const r = held.get(line.id)
    if (!line.productId) return '—'
    if (!r) return holds && reservations.data ? quantity(0, products.get(line.productId)?.unit) : '—'
    return quantity(pick(r), products.get(line.productId)?.unit)
  }
  return (
    <section className="card" aria-labelledby="o-lines">
      <h2 id="o-lines">Lines</h2>
      {reservations.error ? (
        <ErrorNotice error={reservations.error} what="Reading what the order holds" />
      ) : null}
      <DataTable
        caption={`Lines of ${order.code}: ordered, reserved, backordered and shipped`}
        rows={order.lines}
        rowKey={(line) => line.id}
        rowClass={(line) => (problems.has(line.lineNumber) ? 'has-problem' : undefined)}
        columns={[
          { key: 'n', header: 'Line', number: true, render: (line) => line.lineNumber },
          {
            key: 'what',
            header: 'Product',
            render: (line) => {
              const product = line.productId ? products.get(line.productId) : undefined
              const problem = problems.get(line.lineNumber)
              return (
                <>
                  {line.productId ? (
                    <Link href={`/products/${line.productId}`}>
                      {product ? `${product.sku} ${product.name}` : 'product'}
                    </Link>
                  ) : (
                    (line.description ?? '—')
                  )}
                  {line.productId && line.description ? (
                    <span className="muted"> {line.description}</span>
                  ) : null}
                  {problem && (
                    <span className="line-problem" data-testid={`line-problem-${line.lineNumber}`}>
                      {problem}
                    </span>
                  )}
                </>
              )
            },
          },
          {
            key: 'ordered',
            header: 'Ordered',
            number: true,
            render: (line) =>
              quantity(line.quantity, line.productId ? products.get(line.productId)?.unit : null),
          },
          {
            key: 'reserved',
            header: 'Reserved',
            number: true,
            render: (line) => figure(line, (r) => r.reserved),
          },
          {
            key: 'backordered',
            header: 'Backordered',
            number: true,
            render: (line) => figure(line, (r) => r.backordered),
          },
          {
            key: 'shipped',
            header: 'Shipped',
            number: true,
            render: (line) => figure(line, (r) => r.shipped),
          },
          {
            key: 'price',
            header: 'Unit price',
            number: true,
            render: (line) => money(line.unitPrice, order.currency),
          },
          {
            key: 'total',
            header: 'Line total',
            number: true,
            render: (line) => money(line.lineTotal, order.currency),
          },
        ]}
      />
      {!holds && order.status === 'Draft' && (
        <p className="muted">A draft holds no stock: confirming it reserves what is on hand.</p>
      )}
    </section>
  )
}

function OrderShipments({ order }: { order: Order }) {
  const { can } = useWorkspace()
  const shipments = useQuery(
    getShipmentsOptions({
      query: { Page: 1, PageSize: 100, $filter: `orderId eq ${quoted(order.id)}`, $orderby: 'dateCreated' },
    }),
  )
  const [returning, setReturning] = useState<Shipment | null>(null)
  const canReturn = can('Orders', 'Modify')
  return (
    <section className="card" aria-labelledby="o-shipments">
      <h2 id="o-shipments">Shipments</h2>
      <Loaded query={shipments} what="Loading the order's shipments">
        {(result) => (
          <DataTable
            caption={`Shipments of ${order.code}`}
            rows={result.data}
            rowKey={(row) => row.id}
            empty="No shipments carry this order yet."
            columns={[
              {
                key: 'code',
                header: 'Shipment',
                nowrap: true,
                render: (row) => <Link href={`/delivery/shipments/${row.id}`}>{row.code}</Link>,
              },
              { key: 'status', header: 'State', render: (row) => <Status value={row.status} /> },
              { key: 'day', header: 'Day', nowrap: true, render: (row) => day(row.scheduledDate) },
              { key: 'delivered', header: 'Delivered', render: (row) => dateTime(row.deliveredAt) },
              {
                key: 'docs',
                header: 'Documents and returns',
                render: (row) => (
                  <span className="actions">
                    <PdfButton
                      url={`/api/v1/shipments/${encodeURIComponent(row.id)}/delivery-note`}
                      fileName={pdfName('delivery-note', row.code)}
                      label="Delivery note"
                      accessibleName={`Delivery note of ${row.code}`}
                    />
                    {canReturn && row.status === 'Delivered' && (
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Return goods of ${row.code}`}
                        aria-expanded={returning?.id === row.id}
                        onClick={() => setReturning(returning?.id === row.id ? null : row)}
                      >
                        Return goods
                      </button>
                    )}
                  </span>
                ),
              },
            ]}
          />
        )}
      </Loaded>
      {returning && (
        <ReturnForm
          key={returning.id}
          shipment={{ id: returning.id, code: returning.code }}
          onDone={() => setReturning(null)}
        />
      )}
    </section>
  )
}

function OrderReturns({ order }: { order: Order }) {
  const returns = useQuery(
    getOrderReturnsOptions({ path: { orderId: order.id }, query: { Page: 1, PageSize: 100 } }),
  )
  return (
    <section className="card" aria-labelledby="o-returns">
      <h2 id="o-returns">Returns</h2>
      <Loaded query={returns} what="Loading the order's returns">
        {(result) => (
          <DataTable
            caption={`Returns of ${order.code}`}
            rows={result.data}
            rowKey={(row) => row.id}
            empty="Nothing has come back from this order."
            columns={[
              {
                key: 'number',
                header: 'Return',
                nowrap: true,
                render: (row) => <Link href={`/returns/${row.id}`}>{row.number}</Link>,
              },
              { key: 'status', header: 'State', render: (row) => <Status value={row.status} /> },
              { key: 'reason', header: 'Reason', render: (row) => row.reason },
              {
                key: 'value',
                header: 'Value',
                number: true,
                render: (row) => `${money(row.value, order.currency)}${row.credited ? ' (credited)' : ''}`,
              },
            ]}
          />
        )}
      </Loaded>
    </section>
  )
}
