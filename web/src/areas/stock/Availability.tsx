import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import {
  getAvailableToPromiseOptions,
  getProductAvailabilityOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { localDay } from '../../lib/dates'
import { problemsOf } from '../../lib/form-errors'
import { day, quantity, words } from '../../lib/format'
import { promiseInWords } from './promise'

/** What a product has free to sell: on hand, held by orders, short, and what is on its way. */
export function Availability({ productId, unit }: { productId: string; unit: string }) {
  const availability = useQuery(getProductAvailabilityOptions({ path: { productId } }))
  return (
    <section className="card" aria-labelledby="p-availability">
      <h2 id="p-availability">Availability</h2>
      <Loaded query={availability} what="Reading the availability">
        {({ data: a }) => (
          <>
            <dl className="figures" data-testid="availability">
              <div className="figure">
                <dt>On hand</dt>
                <dd>{quantity(a.onHand, unit)}</dd>
              </div>
              <div className="figure">
                <dt>Reserved</dt>
                <dd>{quantity(a.reserved, unit)}</dd>
              </div>
              <div className="figure">
                <dt>Available</dt>
                <dd>{quantity(a.available, unit)}</dd>
              </div>
              <div className="figure">
                <dt>Backordered</dt>
                <dd>{quantity(a.backordered, unit)}</dd>
              </div>
            </dl>
            {a.available < 0 && (
              <p className="muted">Below zero: stock was issued by hand from under a reservation.</p>
            )}
            <h3>Incoming</h3>
            <DataTable
              caption="Incoming stock, earliest first"
              rows={a.incoming}
              rowKey={(row) => `${row.source}:${row.reference}:${row.date ?? ''}`}
              empty="Nothing on its way: no open purchase order, transfer in transit or work order makes it."
              columns={[
                {
                  key: 'date',
                  header: 'Expected',
                  nowrap: true,
                  render: (row) => (row.date ? day(row.date) : 'undated'),
                },
                { key: 'source', header: 'From', render: (row) => words(row.source) },
                { key: 'reference', header: 'Reference', nowrap: true, render: (row) => row.reference },
                {
                  key: 'qty',
                  header: 'Quantity',
                  number: true,
                  render: (row) => quantity(row.quantity, unit),
                },
              ]}
            />
          </>
        )}
      </Loaded>
      <PromiseCheck productId={productId} unit={unit} />
    </section>
  )
}

/** Available-to-promise: can this quantity be promised by that day, and if not, from when. */
function PromiseCheck({ productId, unit }: { productId: string; unit: string }) {
  const [qty, setQty] = useState('')
  const [date, setDate] = useState(() => localDay())
  const [asked, setAsked] = useState<{ quantity: number; date: string } | null>(null)
  const [local, setLocal] = useState<Record<string, string>>({})
  const answer = useQuery({
    ...getAvailableToPromiseOptions({
      path: { productId },
      query: { quantity: asked?.quantity ?? 1, date: asked?.date ?? date },
    }),
    enabled: asked !== null,
    retry: false,
  })
  const server = problemsOf(answer.error)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    const value = Number(qty)
    if (qty.trim() === '' || !Number.isFinite(value) || value <= 0) found.quantity = 'A quantity above 0.'
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) found.date = 'Choose the day.'
    setLocal(found)
    if (Object.keys(found).length === 0) setAsked({ quantity: value, date })
  }
  return (
    <form aria-labelledby="p-promise" onSubmit={submit} noValidate>
      <h3 id="p-promise">Can we promise it?</h3>
      <div className="form-row">
        <Field label={`Quantity to promise (${unit})`} problem={local.quantity ?? server.quantity}>
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              value={qty}
              onChange={(event) => setQty(event.target.value)}
            />
          )}
        </Field>
        <Field label="By" hint="The day the customer wants it" problem={local.date ?? server.date}>
          {(control) => (
            <input {...control} type="date" value={date} onChange={(event) => setDate(event.target.value)} />
          )}
        </Field>
      </div>
      <button type="submit" disabled={answer.isFetching}>
        {answer.isFetching ? 'Checking…' : 'Check'}
      </button>
      {answer.error && !server.quantity && !server.date ? (
        <ErrorNotice error={answer.error} what="Checking the promise" />
      ) : null}
      {asked && answer.data && !answer.isFetching && (
        <p
          className={`notice ${answer.data.data.promisable ? 'ok' : 'warn'}`}
          role="status"
          data-testid="promise"
        >
          {promiseInWords(answer.data.data, unit, day)}
        </p>
      )}
    </form>
  )
}
