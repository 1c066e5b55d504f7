import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useLocation } from 'wouter'
import {
  createSupplierMutation,
  getSuppliersOptions,
  updateSupplierMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { SupplierResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ErrorNotice } from '../../components/ErrorNotice'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { Field } from '../../components/Field'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { mergedProblems } from '../../lib/form-errors'
import { words } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf } from '../../lib/odata'

export const PAYMENT_TERMS: SupplierResponse['paymentTerms'][] = [
  'Prepaid',
  'DueOnReceipt',
  'Net7',
  'Net15',
  'Net30',
  'Net45',
  'Net60',
  'Net90',
  'EndOfMonth',
]

/** Suppliers: search, filter, sort and page by the server; a new one with its terms. */
export default function SupplierList() {
  const { can } = useWorkspace()
  const list = useListState({ filters: { active: '' }, sort: { field: 'name', descending: false } })
  const filter = allOf(list.filters.active && `isActive eq ${list.filters.active}`)
  const query = list.parameters(filter)
  const suppliers = useQuery({
    ...getSuppliersOptions({ query }),
    placeholderData: keepPreviousData,
  })
  const [creating, setCreating] = useState(false)
  return (
    <>
      <PageHeader title="Suppliers">
        <ExportCsvButton url="/api/v1/suppliers" query={query} fileName="suppliers.csv" />
        {can('Suppliers', 'Modify') && !creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New supplier
          </button>
        )}
      </PageHeader>
      {creating && <SupplierForm onDone={() => setCreating(false)} />}
      <ListToolbar label="Find suppliers">
        <SearchField hint="Name, code, email or tax number" value={list.search} onChange={list.setSearch} />
        <ChoiceFilter
          label="State"
          value={list.filters.active}
          onChange={(value) => list.setFilter('active', value)}
          choices={[
            { value: 'true', label: 'Active' },
            { value: 'false', label: 'Inactive' },
          ]}
        />
      </ListToolbar>
      <Loaded query={suppliers} what="Loading suppliers">
        {(result) => (
          <PagedTable
            label="Suppliers"
            result={result}
            list={list}
            rowKey={(row) => row.id}
            choosePageSize
            empty={list.term || filter ? 'No supplier matches.' : 'No suppliers yet.'}
            columns={[
              { key: 'code', header: 'Code', sortField: 'code', nowrap: true, render: (row) => row.code },
              {
                key: 'name',
                header: 'Name',
                sortField: 'name',
                render: (row) => <Link href={`/suppliers/${row.id}`}>{row.name}</Link>,
              },
              { key: 'email', header: 'Email', sortField: 'email', render: (row) => row.email ?? '—' },
              {
                key: 'terms',
                header: 'Payment terms',
                sortField: 'paymentTerms',
                render: (row) => words(row.paymentTerms),
              },
              {
                key: 'lead',
                header: 'Lead time (days)',
                number: true,
                sortField: 'leadTimeDays',
                render: (row) => row.leadTimeDays,
              },
              { key: 'currency', header: 'Currency', render: (row) => row.currency },
              { key: 'state', header: 'State', render: (row) => (row.isActive ? 'Active' : 'Inactive') },
            ]}
          />
        )}
      </Loaded>
    </>
  )
}

/** Creates a supplier, or edits one: the fields the API takes, its reasons shown at each. */
export function SupplierForm({ supplier, onDone }: { supplier?: SupplierResponse; onDone: () => void }) {
  const queryClient = useQueryClient()
  const { currency } = useWorkspace()
  const [, navigate] = useLocation()
  const [name, setName] = useState(supplier?.name ?? '')
  const [email, setEmail] = useState(supplier?.email ?? '')
  const [phone, setPhone] = useState(supplier?.phoneNumber ?? '')
  const [code, setCode] = useState(supplier?.currency ?? currency ?? '')
  const [terms, setTerms] = useState<SupplierResponse['paymentTerms']>(supplier?.paymentTerms ?? 'Net30')
  const [lead, setLead] = useState(String(supplier?.leadTimeDays ?? 7))
  const [notes, setNotes] = useState(supplier?.notes ?? '')
  const [website, setWebsite] = useState(supplier?.website ?? '')
  const [taxNumber, setTaxNumber] = useState(supplier?.taxNumber ?? '')
  const [active, setActive] = useState(supplier?.isActive ?? true)
  const [local, setLocal] = useState<Record<string, string>>({})
  const refresh = () =>
    Promise.all(
      ['getSuppliers', 'getSupplier'].map((_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] })),
    )
  const create = useMutation({ ...createSupplierMutation(), onSuccess: refresh })
  const update = useMutation({ ...updateSupplierMutation(), onSuccess: refresh })
  const error = supplier ? update.error : create.error
  const problems = mergedProblems(local, error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!name.trim()) found.name = 'Enter the supplier’s name.'
    if (email.trim() && !/^\S+@\S+\.\S+$/.test(email.trim())) found.email = 'Enter an email address.'
    if (code.trim() && !/^[A-Za-z]{3}$/.test(code.trim())) found.currency = 'A 3-letter code, e.g. ZAR.'
    const days = Number(lead)
    if (!Number.isInteger(days) || days < 0 || days > 365) found.leadTimeDays = 'Whole days, 0 to 365.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    const body = {
      name: name.trim(),
      email: email.trim() || null,
      phoneNumber: phone.trim() || null,
      ...(code.trim() ? { currency: code.trim().toUpperCase() } : {}),
      paymentTerms: terms,
      leadTimeDays: days,
      notes: notes.trim() || null,
      website: website.trim() || null,
      taxNumber: taxNumber.trim() || null,
      isActive: active,
    }
    if (supplier)
      update.mutate(
        // A PUT resets what it omits: the address kept as it is, the rest from the form.
        {
          path: { supplierId: supplier.id },
          body: { ...body, address: supplier.address, remittanceAddress: supplier.remittanceAddress },
        },
        { onSuccess: () => onDone() },
      )
    else
      create.mutate(
        { body },
        {
          onSuccess: (created) => {
            onDone()
            navigate(`/suppliers/${created.data.id}`)
          },
        },
      )
  }
  const pending = create.isPending || update.isPending
  return (
    <form
      className="card"
      onSubmit={submit}
      noValidate
      aria-label={supplier ? 'Edit supplier' : 'New supplier'}
    >
      <h2>{supplier ? 'Edit supplier' : 'New supplier'}</h2>
      {error ? <ErrorNotice error={error} what="Saving the supplier" /> : null}
      <div className="form-row">
        <Field label="Name" problem={problems.name}>
          {(control) => <input {...control} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Email" problem={problems.email}>
          {(control) => (
            <input {...control} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <Field label="Phone" problem={problems.phoneNumber}>
          {(control) => <input {...control} value={phone} onChange={(e) => setPhone(e.target.value)} />}
        </Field>
      </div>
      <div className="form-row">
        <Field label="Currency" hint="ISO code, e.g. ZAR" problem={problems.currency}>
          {(control) => (
            <input {...control} value={code} maxLength={3} onChange={(e) => setCode(e.target.value)} />
          )}
        </Field>
        <Field label="Payment terms" problem={problems.paymentTerms}>
          {(control) => (
            <select
              {...control}
              value={terms}
              onChange={(e) => setTerms(e.target.value as SupplierResponse['paymentTerms'])}
            >
              {PAYMENT_TERMS.map((t) => (
                <option key={t} value={t}>
                  {words(t)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Lead time (days)" problem={problems.leadTimeDays}>
          {(control) => (
            <input {...control} inputMode="numeric" value={lead} onChange={(e) => setLead(e.target.value)} />
          )}
        </Field>
      </div>
      <div className="form-row">
        <Field label="Website" problem={problems.website}>
          {(control) => <input {...control} value={website} onChange={(e) => setWebsite(e.target.value)} />}
        </Field>
        <Field label="Tax number" problem={problems.taxNumber}>
          {(control) => (
            <input {...control} value={taxNumber} onChange={(e) => setTaxNumber(e.target.value)} />
          )}
        </Field>
      </div>
      <Field label="Notes" problem={problems.notes}>
        {(control) => <textarea {...control} value={notes} onChange={(e) => setNotes(e.target.value)} />}
      </Field>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
          Active (offered for new purchase orders)
        </label>
      </div>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : supplier ? 'Save supplier' : 'Create supplier'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}
