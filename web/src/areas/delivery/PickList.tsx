import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { getPickListOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { DataTable } from '../../components/DataTable'
import { Loaded } from '../../components/Loaded'
import { PdfButton } from '../../components/PdfButton'
import { pdfName } from '../../lib/documents'
import { integer, quantity } from '../../lib/format'

type View = 'product' | 'stop'

/** What to load for a plan: by product (the totals) or by stop (each stop's lines and packages). */
export function PickList({ planId, code }: { planId: string; code: string }) {
  const [view, setView] = useState<View>('product')
  const pickList = useQuery(getPickListOptions({ path: { deliveryPlanId: planId } }))
  const base = `/api/v1/plans/${encodeURIComponent(planId)}`
  return (
    <section className="card" aria-labelledby="pl-pick">
      <h2 id="pl-pick">Pick list</h2>
      <div className="actions">
        <PdfButton url={`${base}/pick-list.pdf`} fileName={pdfName('pick-list', code)} label="Pick list" />
        <PdfButton url={`${base}/route-sheet`} fileName={pdfName('route-sheet', code)} label="Route sheet" />
      </div>
      <fieldset className="choice">
        <legend>Show</legend>
        {(
          [
            ['product', 'By product'],
            ['stop', 'By stop'],
          ] as const
        ).map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name={`pick-view-${planId}`}
              value={value}
              checked={view === value}
              onChange={() => setView(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <Loaded query={pickList} what="Loading the pick list">
        {({ data }) =>
          view === 'product' ? (
            <DataTable
              caption={`Pick list of ${code} by product`}
              rows={data.byProduct}
              rowKey={(row) => row.productId}
              empty="The plan's shipments carry no lines: nothing to pick by product."
              columns={[
                { key: 'sku', header: 'SKU', nowrap: true, render: (row) => row.sku },
                {
                  key: 'name',
                  header: 'Product',
                  render: (row) => <Link href={`/products/${row.productId}`}>{row.name}</Link>,
                },
                {
                  key: 'qty',
                  header: 'To pick',
                  number: true,
                  render: (row) => quantity(row.quantity, row.unitOfMeasure),
                },
                { key: 'stops', header: 'Stops', number: true, render: (row) => integer(row.stops) },
              ]}
            />
          ) : data.byStop.length === 0 ? (
            <p className="muted">No stops on the plan.</p>
          ) : (
            <ol className="pick-stops">
              {data.byStop.map((stop) => (
                <li key={stop.shipmentId}>
                  <h3>
                    Stop {stop.stopSequence ?? '?'}:{' '}
                    <Link href={`/delivery/shipments/${stop.shipmentId}`}>{stop.code}</Link>
                    {stop.customerName ? ` for ${stop.customerName}` : ''}
                  </h3>
                  <DataTable
                    caption={`Stop ${stop.stopSequence ?? '?'} (${stop.code}): what to load`}
                    rows={stop.lines}
                    rowKey={(line) => `${line.lineNumber}`}
                    empty="No lines on this shipment."
                    columns={[
                      { key: 'sku', header: 'SKU', nowrap: true, render: (line) => line.sku },
                      { key: 'name', header: 'Product', render: (line) => line.name },
                      {
                        key: 'qty',
                        header: 'Quantity',
                        number: true,
                        render: (line) => quantity(line.quantity),
                      },
                      { key: 'package', header: 'Package', render: (line) => line.package ?? '—' },
                    ]}
                  />
                </li>
              ))}
            </ol>
          )
        }
      </Loaded>
    </section>
  )
}
