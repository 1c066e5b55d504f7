import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import {
  createOrderMutation,
  getAllCustomersOptions,
  getProductsOptions,
  updateOrderMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { CreateOrderCommand, GetOrderResponses } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { Combobox, type ComboOption } from '../../components/Combobox'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { dayIn } from '../../lib/dates'
import { mergedProblems } from '../../lib/form-errors'
import { useDebounced } from '../../lib/hooks'
import { draftLineProblems, type LineDraft, orderDay, orderLinesBody } from './order-logic'

type Order = GetOrderResponses[200]['data']

const ADDRESS_KEYS = [
  'fullAddress',
  'unit',
  'number',
  'street',
  'suburb',
  'city',
  'province',
  'postcode',
  'country',
  'latitude',
  'longitude',
] as const

/** The order's delivery address as the API takes it back (an edit replaces it, so it is sent as it was). */
function addressRequest(address: Order['deliveryAddress']): CreateOrderCommand['deliveryAddress'] {
  if (!address) return null
  const source = address as Record<string, unknown>
  return Object.fromEntries(ADDRESS_KEYS.map((key) => [key, source[key] ?? null]))
}

/** Customers or products whose name (or SKU) holds the text, for a picker. */
function useCustomerOptions(text: string): { options: ComboOption[]; loading: boolean } {
  const term = useDebounced(text.trim(), 250)
  const query = useQuery({
    ...getAllCustomersOptions({ query: { Page: 1, PageSize: 8, $search: term, $orderby: 'name' } }),
    enabled: term !== '',
  })
  return {
    options: (query.data?.data ?? []).map((c) => ({ id: c.id, label: c.name })),
    loading: query.isFetching,
  }
}

function useProductOptions(text: string) {
  const term = useDebounced(text.trim(), 250)
  const query = useQuery({
    ...getProductsOptions({ query: { Page: 1, PageSize: 8, $search: term, $orderby: 'sku' } }),
    enabled: term !== '',
  })
  const products = query.data?.data ?? []
  return {
    options: products.map((p) => ({ id: p.id, label: `${p.sku} ${p.name}`, detail: p.unitOfMeasure })),
    priceOf: (id: string) => products.find((p) => p.id === id)?.unitPrice ?? null,
    loading: query.isFetching,
  }
}

const emptyLine = (key: number): LineDraft => ({
  key,
  productId: '',
  productText: '',
  description: '',
  quantity: '1',
  unitPrice: '',
})

/**
 * A sales order's form: a new draft, or an edit of a Draft or Confirmed order (the API replaces its
 * fields and all its lines). The customer and each line's product are found by typing; what the
 * API refuses is shown at the field it names (`lines.1.quantity` at the second line's quantity).
 */
export function OrderForm({
  order,
  productLabels,
  onDone,
}: {
  /** The order edited; none for a new draft. */
  order?: Order
  /** SKU and name of the edited order's products, to show in their pickers. */
  productLabels?: ReadonlyMap<string, string>
  onDone: (orderId: string | null) => void
}) {
  const { timeZone } = useWorkspace()
  const queryClient = useQueryClient()
  const refresh = () =>
    Promise.all(
      ['getOrders', 'getOrder', 'getOrderReservations'].map((_id) =>
        queryClient.invalidateQueries({ queryKey: [{ _id }] }),
      ),
    )
  const create = useMutation({ ...createOrderMutation(), onSuccess: refresh })
  const update = useMutation({ ...updateOrderMutation(), onSuccess: refresh })
  const saving = order ? update : create

  const originalDay = order ? dayIn(timeZone, new Date(order.orderDate)) : ''
  const [customerId, setCustomerId] = useState(order?.customerId ?? '')
  const [customerText, setCustomerText] = useState(order?.customer.name ?? '')
  const [day, setDay] = useState(originalDay || dayIn(timeZone))
  const [notes, setNotes] = useState(order?.notes ?? '')
  const [lines, setLines] = useState<LineDraft[]>(() =>
    order
      ? order.lines.map((line, index) => ({
          key: index,
          productId: line.productId ?? '',
          productText: line.productId ? (productLabels?.get(line.productId) ?? '') : '',
          description: line.description ?? '',
          quantity: String(line.quantity),
          unitPrice: String(line.unitPrice),
        }))
      : [emptyLine(0)],
  )
  const [nextKey, setNextKey] = useState(lines.length)
  const [local, setLocal] = useState<Record<string, string>>({})
  const problems = mergedProblems(local, saving.error)
  const customers = useCustomerOptions(customerId ? '' : customerText)

  const changeLine = (key: number, change: Partial<LineDraft>) =>
    setLines((current) => current.map((line) => (line.key === key ? { ...line, ...change } : line)))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = draftLineProblems(lines)
    if (!customerId) found.customerId = 'Choose the customer from the suggestions.'
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) found.orderDate = 'A date.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    const body = {
      customerId,
      // A day unchanged is left out: the API keeps the order's own instant.
      ...(day !== originalDay ? { orderDate: orderDay(day) } : {}),
      notes: notes.trim() || null,
      lines: orderLinesBody(lines),
    }
    if (order)
      update.mutate(
        {
          path: { orderId: order.id },
          body: { ...body, deliveryAddress: addressRequest(order.deliveryAddress) },
        },
        { onSuccess: () => onDone(order.id) },
      )
    else create.mutate({ body }, { onSuccess: (result) => onDone(result.data.id) })
  }

  const title = order ? `Edit order ${order.code}` : 'New order'
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={title}>
      <h2>{title}</h2>
      {saving.error ? (
        <ErrorNotice error={saving.error} what={order ? 'Saving the order' : 'Creating the order'} />
      ) : null}
      <div className="form-row">
        <Field label="Customer" hint="Type part of the name" problem={problems.customerId}>
          {(control) => (
            <Combobox
              id={control.id}
              label="Customer"
              describedBy={control['aria-describedby']}
              invalid={control['aria-invalid']}
              text={customerText}
              onText={(text) => {
                setCustomerText(text)
                setCustomerId('')
              }}
              options={customers.options}
              loading={customers.loading}
              onChoose={(option) => {
                setCustomerId(option.id)
                setCustomerText(option.label)
              }}
            />
          )}
        </Field>
        <Field label="Order date" problem={problems.orderDate}>
          {(control) => (
            <input {...control} type="date" value={day} onChange={(e) => setDay(e.target.value)} />
          )}
        </Field>
        <Field label="Notes" problem={problems.notes}>
          {(control) => <input {...control} value={notes} onChange={(e) => setNotes(e.target.value)} />}
        </Field>
      </div>
      <fieldset className="order-lines">
        <legend>Lines</legend>
        {problems.lines && !Object.keys(problems).some((k) => k.startsWith('lines.')) && (
          <p className="problem">{problems.lines}</p>
        )}
        {lines.map((line, index) => (
          <OrderLineFields
            key={line.key}
            index={index}
            line={line}
            problems={problems}
            onChange={(change) => changeLine(line.key, change)}
            onRemove={
              lines.length > 1 ? () => setLines((current) => current.filter((l) => l.key !== line.key)) : null
            }
          />
        ))}
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setLines((current) => [...current, emptyLine(nextKey)])
            setNextKey(nextKey + 1)
          }}
        >
          Add a line
        </button>
      </fieldset>
      <div className="actions">
        <button type="submit" disabled={saving.isPending}>
          {saving.isPending ? 'Saving…' : order ? 'Save order' : 'Create draft order'}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function OrderLineFields({
  index,
  line,
  problems,
  onChange,
  onRemove,
}: {
  index: number
  line: LineDraft
  problems: Record<string, string>
  onChange: (change: Partial<LineDraft>) => void
  onRemove: (() => void) | null
}) {
  const products = useProductOptions(line.productId ? '' : line.productText)
  const n = index + 1
  const at = (field: string) => problems[`lines.${index}.${field}`]
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of one line's fields inside the lines' fieldset
    <div className="form-row order-line" role="group" aria-label={`Line ${n}`}>
      <Field
        label={`Line ${n} product`}
        hint="SKU or name"
        problem={at('productId') ?? problems[`lines.${index}`]}
      >
        {(control) => (
          <Combobox
            id={control.id}
            label={`Line ${n} product`}
            describedBy={control['aria-describedby']}
            invalid={control['aria-invalid']}
            text={line.productText}
            onText={(text) => onChange({ productText: text, productId: '' })}
            options={products.options}
            loading={products.loading}
            onChoose={(option) => {
              const price = products.priceOf(option.id)
              onChange({
                productId: option.id,
                productText: option.label,
                ...(line.unitPrice === '' && price !== null ? { unitPrice: String(price) } : {}),
              })
            }}
          />
        )}
      </Field>
      <Field label={`Line ${n} description`} problem={at('description')}>
        {(control) => (
          <input
            {...control}
            value={line.description}
            onChange={(e) => onChange({ description: e.target.value })}
          />
        )}
      </Field>
      <Field label={`Line ${n} quantity`} problem={at('quantity')}>
        {(control) => (
          <input
            {...control}
            inputMode="decimal"
            value={line.quantity}
            onChange={(e) => onChange({ quantity: e.target.value })}
          />
        )}
      </Field>
      <Field label={`Line ${n} unit price`} problem={at('unitPrice')}>
        {(control) => (
          <input
            {...control}
            inputMode="decimal"
            value={line.unitPrice}
            onChange={(e) => onChange({ unitPrice: e.target.value })}
          />
        )}
      </Field>
      {onRemove && (
        <button type="button" className="secondary" aria-label={`Remove line ${n}`} onClick={onRemove}>
          Remove
        </button>
      )}
    </div>
  )
}
