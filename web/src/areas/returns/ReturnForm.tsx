import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useLocation } from 'wouter'
import {
  createReturnMutation,
  getShipmentLinesOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { problemsOf } from '../../lib/form-errors'
import { quantity } from '../../lib/format'
import { useUnits } from '../stock/units'
import { problemsByProduct, type ReturnDraft, returnableProducts, returnDraft } from './return-logic'

/**
 * A return of goods a delivered shipment carried: the quantity coming back of each product and
 * why. The server checks each against what was delivered less what other returns take, and its
 * refusal is shown at the product's line.
 */
export function ReturnForm({
  shipment,
  onDone,
}: {
  shipment: { id: string; code: string }
  onDone: () => void
}) {
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const lines = useQuery(getShipmentLinesOptions({ path: { shipmentId: shipment.id } }))
  const products = returnableProducts(lines.data?.data.lines ?? [])
  const unitOf = useUnits(products.map((p) => p.sku))
  const create = useMutation({
    ...createReturnMutation(),
    onSuccess: async (answer) => {
      await Promise.all(
        ['getOrder', 'getOrderReturns', 'getReturns', 'getShipmentLines'].map((_id) =>
          queryClient.invalidateQueries({ queryKey: [{ _id }] }),
        ),
      )
      onDone()
      navigate(`/returns/${answer.data.id}`)
    },
  })
  const [typed, setTyped] = useState<Record<string, string>>({})
  const [reason, setReason] = useState('')
  const [local, setLocal] = useState<Record<string, string>>({})
  const [sent, setSent] = useState<ReturnDraft['lines']>([])
  const fromServer = problemsByProduct(create.error, sent)
  const problems = { ...fromServer, ...local }
  const reasonProblem = local.reason ?? problemsOf(create.error).reason
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const draft = returnDraft(products, typed)
    const found = { ...draft.problems }
    if (!reason.trim()) found.reason = 'Say why the goods come back.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    setSent(draft.lines)
    create.mutate({ body: { shipmentId: shipment.id, reason: reason.trim(), lines: draft.lines } })
  }
  const heading = `return-${shipment.id}`
  return (
    <form className="card" aria-labelledby={heading} onSubmit={submit} noValidate>
      <h3 id={heading}>Return goods of {shipment.code}</h3>
      {create.error ? <ErrorNotice error={create.error} what="Requesting the return" /> : null}
      <Loaded query={lines} what="Loading what the shipment delivered">
        {() =>
          products.length === 0 ? (
            <p className="muted">This shipment carried no product lines: there is nothing to take back.</p>
          ) : (
            <>
              {local.lines && (
                <p className="line-problem" role="alert">
                  {local.lines}
                </p>
              )}
              <div className="form-row">
                {products.map((product) => (
                  <Field
                    key={product.productId}
                    label={`Quantity of ${product.sku} ${product.name}`}
                    hint={`${quantity(product.delivered, unitOf(product.sku))} delivered`}
                    problem={problems[product.productId]}
                  >
                    {(control) => (
                      <input
                        {...control}
                        inputMode="decimal"
                        value={typed[product.productId] ?? ''}
                        onChange={(event) => setTyped({ ...typed, [product.productId]: event.target.value })}
                      />
                    )}
                  </Field>
                ))}
                <Field label="Reason" hint="e.g. Damaged in transit" problem={reasonProblem}>
                  {(control) => (
                    <input {...control} value={reason} onChange={(event) => setReason(event.target.value)} />
                  )}
                </Field>
              </div>
              <div className="actions">
                <button type="submit" disabled={create.isPending}>
                  {create.isPending ? 'Requesting…' : 'Request return'}
                </button>
                <button type="button" className="secondary" onClick={onDone}>
                  Close
                </button>
              </div>
            </>
          )
        }
      </Loaded>
    </form>
  )
}
