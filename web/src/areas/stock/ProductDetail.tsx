import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  getProductLedgerOptions,
  getProductOptions,
  getProductStockOptions,
  postStockMovementMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { endOfLocalDay, fromLocalInput, isFuture, localDay, toLocalInput } from '../../lib/dates'
import { costPerUnit, dateTime, day, money, quantity, words } from '../../lib/format'
import { Availability } from './Availability'
import { shortfallOf } from './shortfall'

/** One product's stock: as of any day, the ledger with its running balance, and a movement to post. */
export default function ProductDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { currency, can } = useWorkspace()
  const product = useQuery(getProductOptions({ path: { productId: id } }))
  const p = product.data?.data
  if (product.error)
    return (
      <>
        <PageHeader title="Product" />
        <ErrorNotice
          error={product.error}
          what="Loading the product"
          onRetry={() => void product.refetch()}
        />
        <Link href="/products">Back to products</Link>
      </>
    )
  if (!p) return <Loading label="Loading the product…" />
  const stocked = p.type !== 'Service'
  return (
    <>
      <p className="breadcrumb">
        <Link href="/products">Products and stock</Link> / {p.sku}
      </p>
      <PageHeader title={p.name} />
      <div className="grid">
        <section className="card" aria-labelledby="p-facts">
          <h2 id="p-facts">Product</h2>
          <dl className="facts">
            <dt>SKU</dt>
            <dd>{p.sku}</dd>
            <dt>Type</dt>
            <dd>{words(p.type)}</dd>
            <dt>Unit</dt>
            <dd>{p.unitOfMeasure}</dd>
            <dt>On hand now</dt>
            <dd>
              {stocked ? quantity(p.onHand, p.unitOfMeasure) : 'holds no stock'}
              {stocked && p.reorderLevel !== null && p.onHand <= p.reorderLevel
                ? ' (at or below reorder level)'
                : ''}
            </dd>
            <dt>Reorder level</dt>
            <dd>{quantity(p.reorderLevel, p.unitOfMeasure)}</dd>
            <dt>Average cost now</dt>
            <dd>{stocked ? costPerUnit(p.averageCost, currency) : '—'}</dd>
            <dt>Price</dt>
            <dd>{money(p.unitPrice, currency)}</dd>
          </dl>
        </section>
        {stocked && <StockAsOf productId={id} unit={p.unitOfMeasure} />}
      </div>
      {stocked && <Availability productId={id} unit={p.unitOfMeasure} />}
      {stocked && can('Products', 'Modify') && <Movement productId={id} unit={p.unitOfMeasure} />}
      {stocked && <Ledger productId={id} unit={p.unitOfMeasure} />}
    </>
  )
}

function StockAsOf({ productId, unit }: { productId: string; unit: string }) {
  const { currency } = useWorkspace()
  const [asOf, setAsOf] = useState(localDay())
  const instant = endOfLocalDay(asOf)
  const stock = useQuery({
    ...getProductStockOptions({ path: { productId }, query: instant ? { asOfDate: instant } : {} }),
    enabled: Boolean(instant),
  })
  const s = stock.data?.data
  return (
    <section className="card" aria-labelledby="p-asof">
      <h2 id="p-asof">Stock as of a day</h2>
      <Field label="As of the end of" hint="Any day in the past: the ledger is replayed to that moment">
        {(control) => (
          <input
            {...control}
            type="date"
            max={localDay()}
            value={asOf}
            onChange={(event) => setAsOf(event.target.value)}
          />
        )}
      </Field>
      {stock.error ? (
        <ErrorNotice error={stock.error} what="Reading the stock" />
      ) : !s ? (
        <Loading />
      ) : (
        <dl className="facts" aria-live="polite">
          <dt>On hand</dt>
          <dd data-testid="stock-on-hand">{quantity(s.onHand, unit)}</dd>
          <dt>Average cost</dt>
          <dd>{costPerUnit(s.unitCost, currency)}</dd>
          <dt>Value</dt>
          <dd>{money(s.value, currency)}</dd>
          <dt>At</dt>
          <dd>{dateTime(s.asOfDate)}</dd>
        </dl>
      )}
    </section>
  )
}

type MovementType = 'Receipt' | 'Issue' | 'Adjustment'

function Movement({ productId, unit }: { productId: string; unit: string }) {
  const queryClient = useQueryClient()
  const { currency } = useWorkspace()
  const [type, setType] = useState<MovementType>('Receipt')
  const [amount, setAmount] = useState('')
  const [unitCost, setUnitCost] = useState('')
  const [when, setWhen] = useState(toLocalInput())
  const [reason, setReason] = useState('')
  const [reference, setReference] = useState('')
  const [problems, setProblems] = useState<Record<string, string>>({})
  const post = useMutation({
    ...postStockMovementMutation(),
    onSuccess: () =>
      Promise.all(
        [
          'getProduct',
          'getProductStock',
          'getProductLedger',
          'getProducts',
          'getProductAvailability',
          'getAvailableToPromise',
        ].map((_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] })),
      ),
  })
  const shortfall = shortfallOf(post.error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    const qty = Number(amount)
    if (!amount || !Number.isFinite(qty)) found.quantity = 'Enter a number.'
    else if (type === 'Adjustment' ? qty === 0 : qty <= 0)
      found.quantity =
        type === 'Adjustment' ? 'An adjustment is not 0 (negative takes stock out).' : 'Enter more than 0.'
    const cost = unitCost.trim() === '' ? null : Number(unitCost)
    if (type === 'Receipt' && cost === null) found.unitCost = 'A receipt needs the cost of one unit.'
    else if (cost !== null && (!Number.isFinite(cost) || cost < 0))
      found.unitCost = 'Enter a cost of 0 or more.'
    const effectiveDate = fromLocalInput(when)
    if (!effectiveDate) found.when = 'Enter a date and time.'
    else if (isFuture(effectiveDate)) found.when = 'A movement cannot be in the future.'
    setProblems(found)
    if (Object.keys(found).length > 0) return
    post.mutate(
      {
        path: { productId },
        body: {
          type,
          quantity: qty,
          ...(cost !== null && type !== 'Issue' ? { unitCost: cost } : {}),
          ...(effectiveDate ? { effectiveDate } : {}),
          reason: reason.trim() || null,
          reference: reference.trim() || null,
        },
      },
      {
        onSuccess: () => {
          setAmount('')
          setUnitCost('')
          setReason('')
          setReference('')
        },
      },
    )
  }

  return (
    <section className="card" aria-labelledby="p-move">
      <h2 id="p-move">Post a movement</h2>
      <form onSubmit={submit} noValidate>
        <div className="form-row">
          <Field
            label="Movement"
            hint="Receipt brings stock in; issue takes it out; adjustment corrects a count"
          >
            {(control) => (
              <select
                {...control}
                value={type}
                onChange={(event) => setType(event.target.value as MovementType)}
              >
                <option value="Receipt">Receipt</option>
                <option value="Issue">Issue</option>
                <option value="Adjustment">Adjustment</option>
              </select>
            )}
          </Field>
          <Field
            label={`Quantity (${unit})`}
            hint={type === 'Adjustment' ? 'Negative to take stock out' : undefined}
            problem={problems.quantity}
          >
            {(control) => (
              <input
                {...control}
                inputMode="decimal"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
              />
            )}
          </Field>
          {type !== 'Issue' && (
            <Field
              label={`Unit cost${currency ? ` (${currency})` : ''}`}
              hint={type === 'Receipt' ? 'Required for a receipt' : 'Optional; else the average cost then'}
              problem={problems.unitCost}
            >
              {(control) => (
                <input
                  {...control}
                  inputMode="decimal"
                  value={unitCost}
                  onChange={(event) => setUnitCost(event.target.value)}
                />
              )}
            </Field>
          )}
          <Field label="When" hint="May be in the past: later entries are re-valued" problem={problems.when}>
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                max={toLocalInput()}
                value={when}
                onChange={(event) => setWhen(event.target.value)}
              />
            )}
          </Field>
          <Field label="Reason">
            {(control) => (
              <input {...control} value={reason} onChange={(event) => setReason(event.target.value)} />
            )}
          </Field>
          <Field label="Reference" hint="e.g. a delivery note or count sheet">
            {(control) => (
              <input {...control} value={reference} onChange={(event) => setReference(event.target.value)} />
            )}
          </Field>
        </div>
        {shortfall ? (
          <div className="notice error" role="alert">
            <p className="title">Not enough stock: nothing was posted</p>
            <p>
              This movement would take the stock below zero on{' '}
              <strong>{dateTime(shortfall.date.toISOString())}</strong>, short by{' '}
              <strong>{quantity(shortfall.shortfall, unit)}</strong>.
            </p>
            <p>
              Receive at least that much on or before that moment, take out less, or date the movement after
              stock arrives.
            </p>
          </div>
        ) : post.error ? (
          <ErrorNotice error={post.error} what="Posting the movement" />
        ) : post.data ? (
          <div className="notice ok" role="status">
            Posted: {words(post.data.data.type)} of {quantity(post.data.data.quantity, unit)} on{' '}
            {dateTime(post.data.data.effectiveDate)}; balance after it{' '}
            {quantity(post.data.data.balance, unit)}.
          </div>
        ) : null}
        <button type="submit" disabled={post.isPending}>
          {post.isPending ? 'Posting…' : 'Post movement'}
        </button>
      </form>
    </section>
  )
}

function Ledger({ productId, unit }: { productId: string; unit: string }) {
  const { currency } = useWorkspace()
  const [page, setPage] = useState(1)
  const ledger = useQuery(
    getProductLedgerOptions({
      path: { productId },
      query: { Page: page, PageSize: 20, $orderby: 'effectiveDate desc' },
    }),
  )
  return (
    <section className="card" aria-labelledby="p-ledger">
      <h2 id="p-ledger">Ledger</h2>
      <p className="muted">Newest first. Balance and average cost are after each entry, in date order.</p>
      {ledger.error ? (
        <ErrorNotice error={ledger.error} onRetry={() => void ledger.refetch()} />
      ) : !ledger.data ? (
        <Loading />
      ) : (
        <>
          <DataTable
            caption="Stock ledger"
            rows={ledger.data.data}
            rowKey={(row) => row.id}
            empty="No movements yet."
            columns={[
              { key: 'date', header: 'Date', nowrap: true, render: (row) => dateTime(row.effectiveDate) },
              { key: 'type', header: 'Movement', render: (row) => words(row.type) },
              {
                key: 'qty',
                header: `Quantity (${unit})`,
                number: true,
                render: (row) => quantity(row.quantity),
              },
              {
                key: 'cost',
                header: 'Unit cost',
                number: true,
                render: (row) => costPerUnit(row.unitCost, currency),
              },
              { key: 'value', header: 'Value', number: true, render: (row) => money(row.value, currency) },
              {
                key: 'balance',
                header: `Balance (${unit})`,
                number: true,
                render: (row) => quantity(row.balance),
              },
              {
                key: 'avg',
                header: 'Average cost',
                number: true,
                render: (row) => costPerUnit(row.averageCost, currency),
              },
              {
                key: 'why',
                header: 'Reason / reference',
                render: (row) => [row.reason, row.reference].filter(Boolean).join(' · ') || '—',
              },
              { key: 'posted', header: 'Posted', nowrap: true, render: (row) => day(row.dateCreated) },
            ]}
          />
          <Pager
            label="Ledger"
            page={ledger.data.page}
            finalPage={ledger.data.finalPage}
            totalCount={ledger.data.totalCount}
            pageSize={20}
            onPage={setPage}
          />
        </>
      )}
    </section>
  )
}
