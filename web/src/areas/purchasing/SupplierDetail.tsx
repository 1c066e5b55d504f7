import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  deleteSupplierProductMutation,
  getProductsOptions,
  getSupplierOptions,
  getSupplierProductsOptions,
  putSupplierProductMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { mergedProblems } from '../../lib/form-errors'
import { costPerUnit, quantity, words } from '../../lib/format'
import { useUnits } from '../stock/units'
import { SupplierForm } from './SupplierList'

/** One supplier: who they are, their terms, and what they sell us at what cost. */
export default function SupplierDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can } = useWorkspace()
  const supplier = useQuery(getSupplierOptions({ path: { supplierId: id } }))
  const [editing, setEditing] = useState(false)
  const s = supplier.data?.data
  if (supplier.error)
    return (
      <>
        <PageHeader title="Supplier" />
        <ErrorNotice
          error={supplier.error}
          what="Loading the supplier"
          onRetry={() => void supplier.refetch()}
        />
        <Link href="/suppliers">Back to suppliers</Link>
      </>
    )
  if (!s) return <Loading label="Loading the supplier…" />
  return (
    <>
      <p className="breadcrumb">
        <Link href="/suppliers">Suppliers</Link> / {s.code}
      </p>
      <PageHeader title={s.name}>
        {can('Suppliers', 'Modify') && !editing && (
          <button type="button" onClick={() => setEditing(true)}>
            Edit supplier
          </button>
        )}
      </PageHeader>
      {editing ? (
        <SupplierForm supplier={s} onDone={() => setEditing(false)} />
      ) : (
        <section className="card" aria-labelledby="s-facts">
          <h2 id="s-facts">Terms</h2>
          <dl className="facts">
            <dt>Code</dt>
            <dd>{s.code}</dd>
            <dt>Payment terms</dt>
            <dd>{words(s.paymentTerms)}</dd>
            <dt>Lead time</dt>
            <dd>{s.leadTimeDays} days</dd>
            <dt>Currency</dt>
            <dd>{s.currency}</dd>
            <dt>Email</dt>
            <dd>{s.email ?? '—'}</dd>
            <dt>Phone</dt>
            <dd>{s.phoneNumber ?? '—'}</dd>
            <dt>Tax number</dt>
            <dd>{s.taxNumber ?? '—'}</dd>
            <dt>State</dt>
            <dd>{s.isActive ? 'Active' : 'Inactive'}</dd>
            <dt>Notes</dt>
            <dd>{s.notes ?? '—'}</dd>
          </dl>
        </section>
      )}
      <SupplierProducts supplierId={id} currency={s.currency} />
      <p>
        <Link href={`/purchase-orders?supplier=${id}`}>Purchase orders from {s.name}</Link>
      </p>
    </>
  )
}

function SupplierProducts({ supplierId, currency }: { supplierId: string; currency: string }) {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const terms = useQuery(
    getSupplierProductsOptions({ path: { supplierId }, query: { Page: 1, PageSize: 100 } }),
  )
  const products = useQuery(getProductsOptions({ query: { Page: 1, PageSize: 100, $orderby: 'sku' } }))
  const unitOf = useUnits(terms.data?.data.map((row) => row.productSku) ?? [])
  const refresh = () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getSupplierProducts' }] })
  const put = useMutation({ ...putSupplierProductMutation(), onSuccess: refresh })
  const remove = useMutation({ ...deleteSupplierProductMutation(), onSuccess: refresh })
  const [productId, setProductId] = useState('')
  const [cost, setCost] = useState('')
  const [moq, setMoq] = useState('1')
  const [lead, setLead] = useState('')
  const [sku, setSku] = useState('')
  const [preferred, setPreferred] = useState(false)
  const [local, setLocal] = useState<Record<string, string>>({})
  const problems = mergedProblems(local, put.error)
  const canModify = can('Suppliers', 'Modify')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!productId) found.productId = 'Choose a product.'
    const unitCost = Number(cost)
    if (cost.trim() === '' || !Number.isFinite(unitCost) || unitCost < 0)
      found.unitCost = 'A cost of 0 or more.'
    const minimum = Number(moq)
    if (!Number.isFinite(minimum) || minimum <= 0) found.minimumOrderQuantity = 'More than 0.'
    const days = lead.trim() === '' ? null : Number(lead)
    if (days !== null && (!Number.isInteger(days) || days < 0)) found.leadTimeDays = 'Whole days, or empty.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    put.mutate(
      {
        path: { supplierId, productId },
        body: {
          unitCost,
          minimumOrderQuantity: minimum,
          leadTimeDays: days,
          supplierSku: sku.trim() || null,
          isPreferred: preferred,
        },
      },
      {
        onSuccess: () => {
          setProductId('')
          setCost('')
          setSku('')
          setLead('')
          setPreferred(false)
        },
      },
    )
  }

  return (
    <section className="card" aria-labelledby="s-products">
      <h2 id="s-products">Products and costs</h2>
      {terms.error ? (
        <ErrorNotice error={terms.error} onRetry={() => void terms.refetch()} />
      ) : !terms.data ? (
        <Loading />
      ) : (
        <DataTable
          caption="Products this supplier sells"
          rows={terms.data.data}
          rowKey={(row) => row.productId}
          empty="No products yet: add what this supplier sells, at its cost."
          columns={[
            {
              key: 'product',
              header: 'Product',
              render: (row) => (
                <Link href={`/products/${row.productId}`}>
                  {row.productSku} {row.productName}
                </Link>
              ),
            },
            { key: 'sku', header: 'Their SKU', render: (row) => row.supplierSku ?? '—' },
            {
              key: 'cost',
              header: 'Unit cost',
              number: true,
              render: (row) => costPerUnit(row.unitCost, row.currency),
            },
            {
              key: 'moq',
              header: 'Minimum order',
              number: true,
              render: (row) => quantity(row.minimumOrderQuantity, unitOf(row.productSku)),
            },
            {
              key: 'lead',
              header: 'Lead time (days)',
              number: true,
              render: (row) => row.effectiveLeadTimeDays,
            },
            { key: 'preferred', header: 'Preferred', render: (row) => (row.isPreferred ? 'Yes' : 'No') },
            ...(canModify
              ? [
                  {
                    key: 'remove',
                    header: 'Remove',
                    render: (row: { productId: string; productSku: string }) => (
                      <button
                        type="button"
                        className="secondary"
                        disabled={remove.isPending}
                        aria-label={`Remove ${row.productSku}`}
                        onClick={() => remove.mutate({ path: { supplierId, productId: row.productId } })}
                      >
                        Remove
                      </button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {remove.error ? <ErrorNotice error={remove.error} what="Removing the product" /> : null}
      {canModify && (
        <form onSubmit={submit} noValidate aria-label="Add or change a product's cost">
          <h3>Add or change a product's cost</h3>
          {put.error ? <ErrorNotice error={put.error} what="Saving the cost" /> : null}
          <div className="form-row">
            <Field label="Product" problem={problems.productId}>
              {(control) => (
                <select {...control} value={productId} onChange={(e) => setProductId(e.target.value)}>
                  <option value="">Choose…</option>
                  {(products.data?.data ?? [])
                    .filter((p) => p.type !== 'Service')
                    .map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.sku} {p.name}
                      </option>
                    ))}
                </select>
              )}
            </Field>
            <Field label={`Unit cost (${currency})`} problem={problems.unitCost}>
              {(control) => (
                <input
                  {...control}
                  inputMode="decimal"
                  value={cost}
                  onChange={(e) => setCost(e.target.value)}
                />
              )}
            </Field>
            <Field label="Minimum order" problem={problems.minimumOrderQuantity}>
              {(control) => (
                <input
                  {...control}
                  inputMode="decimal"
                  value={moq}
                  onChange={(e) => setMoq(e.target.value)}
                />
              )}
            </Field>
            <Field label="Lead time (days)" hint="Empty: the supplier's" problem={problems.leadTimeDays}>
              {(control) => (
                <input
                  {...control}
                  inputMode="numeric"
                  value={lead}
                  onChange={(e) => setLead(e.target.value)}
                />
              )}
            </Field>
            <Field label="Their SKU" problem={problems.supplierSku}>
              {(control) => <input {...control} value={sku} onChange={(e) => setSku(e.target.value)} />}
            </Field>
          </div>
          <div className="field">
            <label className="check">
              <input type="checkbox" checked={preferred} onChange={(e) => setPreferred(e.target.checked)} />
              Preferred supplier of this product (reorder suggestions use it)
            </label>
          </div>
          <button type="submit" disabled={put.isPending}>
            {put.isPending ? 'Saving…' : 'Save cost'}
          </button>
        </form>
      )}
    </section>
  )
}
