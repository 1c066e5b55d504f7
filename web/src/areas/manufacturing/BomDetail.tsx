import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useLocation, useParams } from 'wouter'
import {
  activateBomMutation,
  createWorkOrderMutation,
  getBomCostOptions,
  getBomOptions,
  getBomWorkOrdersOptions,
  reviseBomMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { endOfLocalDay, fromLocalInput, localDay } from '../../lib/dates'
import { costPerUnit, dateTime, day, money, quantity, words } from '../../lib/format'
import { useUnits } from '../stock/units'

const invalidateBoms = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all(
    ['getBom', 'getBoms', 'getBomCost', 'getBomWorkOrders', 'getWorkOrders'].map((_id) =>
      queryClient.invalidateQueries({ queryKey: [{ _id }] }),
    ),
  )

/** A BOM: its lines, activation, its cost rolled up through its sub-assemblies as of a day, its work orders. */
export default function BomDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const bom = useQuery(getBomOptions({ path: { bomId: id } }))
  const activate = useMutation({ ...activateBomMutation(), onSuccess: () => invalidateBoms(queryClient) })
  const revise = useMutation({
    ...reviseBomMutation(),
    onSuccess: (result) => {
      void invalidateBoms(queryClient)
      navigate(`/manufacturing/boms/${result.data.id}`)
    },
  })
  const b = bom.data?.data
  const unitOf = useUnits(b ? [b.product.sku] : [])
  if (bom.error)
    return (
      <>
        <PageHeader title="Bill of materials" />
        <ErrorNotice
          error={bom.error}
          what="Loading the bill of materials"
          onRetry={() => void bom.refetch()}
        />
        <Link href="/manufacturing/boms">Back to bills of materials</Link>
      </>
    )
  if (!b) return <Loading label="Loading the bill of materials…" />
  return (
    <>
      <p className="breadcrumb">
        <Link href="/manufacturing/boms">Bills of materials</Link> / {b.code} revision {b.revision}
      </p>
      <PageHeader title={b.name}>
        <Status value={b.status} />
        {can('Products', 'Modify') && b.status === 'Draft' && (
          <button
            type="button"
            disabled={activate.isPending}
            onClick={() => activate.mutate({ path: { bomId: id } })}
          >
            {activate.isPending ? 'Activating…' : 'Activate'}
          </button>
        )}
        {can('Products', 'Modify') && b.status !== 'Draft' && (
          <button
            type="button"
            className="secondary"
            disabled={revise.isPending}
            onClick={() => revise.mutate({ path: { bomId: id } })}
          >
            New revision
          </button>
        )}
      </PageHeader>
      {activate.error ? <ErrorNotice error={activate.error} what="Activating" /> : null}
      {revise.error ? <ErrorNotice error={revise.error} what="Making a new revision" /> : null}
      {activate.isSuccess && (
        <div className="notice ok" role="status">
          Activated. The product's previously active revision, if any, is now archived.
        </div>
      )}
      <section className="card" aria-labelledby="b-facts">
        <h2 id="b-facts">Makes</h2>
        <dl className="facts">
          <dt>Product</dt>
          <dd>
            <Link href={`/products/${b.productId}`}>
              {b.product.name} ({b.product.sku})
            </Link>
          </dd>
          <dt>Batch size</dt>
          <dd>{quantity(b.outputQuantity, unitOf(b.product.sku))}</dd>
          <dt>Activated</dt>
          <dd>{dateTime(b.activatedAt)}</dd>
          {b.archivedAt && (
            <>
              <dt>Archived</dt>
              <dd>{dateTime(b.archivedAt)}</dd>
            </>
          )}
        </dl>
      </section>
      <Cost bomId={id} productUnit={unitOf(b.product.sku)} />
      {b.status === 'Active' && can('WorkOrders', 'Modify') && <NewWorkOrder bomId={id} />}
      <BomWorkOrders bomId={id} productUnit={unitOf(b.product.sku)} />
    </>
  )
}

function Cost({ bomId, productUnit }: { bomId: string; productUnit: string | null }) {
  const { currency } = useWorkspace()
  const [asOf, setAsOf] = useState(localDay())
  const instant = endOfLocalDay(asOf)
  const cost = useQuery({
    ...getBomCostOptions({ path: { bomId }, query: instant ? { asOfDate: instant } : {} }),
    enabled: Boolean(instant),
  })
  const c = cost.data?.data
  const unitOf = useUnits(c ? c.lineItems.map((line) => line.sku) : [])
  return (
    <section className="card" aria-labelledby="b-cost">
      <h2 id="b-cost">Structure and cost</h2>
      <div className="toolbar">
        <Field
          label="Cost as of the end of"
          hint="Each sub-assembly at the revision active then, each part at its average cost then"
        >
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
      </div>
      {cost.error ? (
        <ErrorNotice error={cost.error} what="Costing" />
      ) : !c ? (
        <Loading label="Costing…" />
      ) : (
        <>
          <dl className="figures" aria-live="polite">
            <div className="figure">
              <dt>Cost of a batch of {quantity(c.outputQuantity, productUnit)}</dt>
              <dd data-testid="bom-total-cost">{money(c.totalCost, currency)}</dd>
            </div>
            <div className="figure">
              <dt>Cost of one</dt>
              <dd data-testid="bom-unit-cost">{costPerUnit(c.unitCost, currency)}</dd>
            </div>
          </dl>
          <DataTable
            caption={`Structure of ${c.code} as of ${day(asOf)}`}
            rows={c.lineItems}
            rowKey={(row) => `${row.parentLineItemId ?? ''}/${row.lineItemId}`}
            columns={[
              {
                key: 'part',
                header: 'Part',
                render: (row) => (
                  <span className="tree-name" style={{ paddingLeft: `${row.depth * 1.25}rem` }}>
                    {row.depth > 0 && <span aria-hidden="true">└ </span>}
                    <Link href={`/products/${row.productId}`}>{row.name}</Link>{' '}
                    <span className="muted">{row.sku}</span>
                  </span>
                ),
              },
              { key: 'level', header: 'Level', number: true, render: (row) => row.depth + 1 },
              {
                key: 'qty',
                header: 'Quantity',
                number: true,
                render: (row) => quantity(row.quantity, unitOf(row.sku)),
              },
              {
                key: 'scrap',
                header: 'Scrap',
                number: true,
                render: (row) => `${quantity(row.scrapPercent)}%`,
              },
              {
                key: 'eff',
                header: 'With scrap',
                number: true,
                render: (row) => quantity(row.effectiveQuantity, unitOf(row.sku)),
              },
              {
                key: 'unit',
                header: 'Unit cost',
                number: true,
                render: (row) => costPerUnit(row.unitCost, currency),
              },
              {
                key: 'ext',
                header: 'Extended',
                number: true,
                render: (row) => money(row.extendedCost, currency),
              },
              {
                key: 'source',
                header: 'Cost from',
                render: (row) =>
                  row.subAssembly ? (
                    <Link href={`/manufacturing/boms/${row.subAssembly.bomId}`}>
                      {row.subAssembly.code} r{row.subAssembly.revision} (rolled up)
                    </Link>
                  ) : row.costSource === 'Ledger' ? (
                    'Stock average'
                  ) : (
                    words(row.costSource)
                  ),
              },
            ]}
          />
        </>
      )}
    </section>
  )
}

function NewWorkOrder({ bomId }: { bomId: string }) {
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const [amount, setAmount] = useState('')
  const [start, setStart] = useState('')
  const [end, setEnd] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const create = useMutation({
    ...createWorkOrderMutation(),
    onSuccess: (result) => {
      void invalidateBoms(queryClient)
      navigate(`/manufacturing/work-orders/${result.data.id}`)
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const qty = Number(amount)
    if (!(qty > 0)) return setProblem('Enter how many to make (more than 0).')
    setProblem(null)
    create.mutate({
      body: { bomId, quantity: qty, plannedStart: fromLocalInput(start), plannedEnd: fromLocalInput(end) },
    })
  }
  return (
    <section className="card" aria-labelledby="b-new-wo">
      <h2 id="b-new-wo">Plan a work order</h2>
      {create.error ? <ErrorNotice error={create.error} what="Creating the work order" /> : null}
      <form onSubmit={submit} noValidate>
        <div className="form-row">
          <Field label="Quantity to make" problem={problem}>
            {(control) => (
              <input
                {...control}
                inputMode="decimal"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
              />
            )}
          </Field>
          <Field label="Planned start">
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                value={start}
                onChange={(event) => setStart(event.target.value)}
              />
            )}
          </Field>
          <Field label="Planned end">
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                value={end}
                onChange={(event) => setEnd(event.target.value)}
              />
            )}
          </Field>
        </div>
        <button type="submit" disabled={create.isPending}>
          Create work order
        </button>
      </form>
    </section>
  )
}

function BomWorkOrders({ bomId, productUnit }: { bomId: string; productUnit: string | null }) {
  const orders = useQuery(getBomWorkOrdersOptions({ path: { bomId }, query: { Page: 1, PageSize: 20 } }))
  return (
    <section className="card" aria-labelledby="b-wos">
      <h2 id="b-wos">Work orders that used it</h2>
      {orders.error ? (
        <ErrorNotice error={orders.error} />
      ) : !orders.data ? (
        <Loading />
      ) : (
        <DataTable
          caption="Work orders of this bill of materials"
          rows={orders.data.data}
          rowKey={(row) => row.id}
          empty="None yet."
          columns={[
            {
              key: 'code',
              header: 'Work order',
              render: (row) => <Link href={`/manufacturing/work-orders/${row.id}`}>{row.code}</Link>,
            },
            {
              key: 'qty',
              header: 'Quantity',
              number: true,
              render: (row) => quantity(row.quantity, productUnit),
            },
            { key: 'status', header: 'State', render: (row) => <Status value={row.status} /> },
            { key: 'done', header: 'Completed', render: (row) => dateTime(row.completedAt) },
          ]}
        />
      )}
    </section>
  )
}
