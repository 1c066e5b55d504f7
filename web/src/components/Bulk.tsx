import { type ReactNode, useState } from 'react'
import { ApiError } from '../api/errors'
import type { Column } from './DataTable'

/** The rows chosen in a list, by id; what is chosen stays chosen across pages until acted on. */
export function useSelection() {
  const [chosen, setChosen] = useState<ReadonlyMap<string, string>>(new Map())
  return {
    chosen,
    count: chosen.size,
    has: (id: string) => chosen.has(id),
    toggle: (id: string, name: string) =>
      setChosen((current) => {
        const next = new Map(current)
        if (next.has(id)) next.delete(id)
        else next.set(id, name)
        return next
      }),
    /** Chooses every row given (all on the page), or lets them go when all are already chosen. */
    toggleAll: (rows: readonly { id: string; name: string }[]) =>
      setChosen((current) => {
        const next = new Map(current)
        const all = rows.length > 0 && rows.every((row) => next.has(row.id))
        for (const row of rows) {
          if (all) next.delete(row.id)
          else next.set(row.id, row.name)
        }
        return next
      }),
    clear: () => setChosen(new Map()),
  }
}

export type Selection = ReturnType<typeof useSelection>

/**
 * The checkbox column of a list: one box per row that can be chosen (named by the row, e.g.
 * "Choose ORD-0004"), and in the header one for all of the page's choosable rows.
 */
export function selectColumn<Row extends { id: string }>(
  selection: Selection,
  rows: readonly Row[],
  name: (row: Row) => string,
  choosable: (row: Row) => boolean = () => true,
): Column<Row> {
  const page = rows.filter(choosable).map((row) => ({ id: row.id, name: name(row) }))
  const all = page.length > 0 && page.every((row) => selection.has(row.id))
  return {
    key: 'choose',
    header: 'Choose',
    headerContent: (
      <input
        type="checkbox"
        aria-label="Choose all on this page"
        checked={all}
        disabled={page.length === 0}
        onChange={() => selection.toggleAll(page)}
      />
    ),
    render: (row) =>
      choosable(row) ? (
        <input
          type="checkbox"
          aria-label={`Choose ${name(row)}`}
          checked={selection.has(row.id)}
          onChange={() => selection.toggle(row.id, name(row))}
        />
      ) : null,
  }
}

export interface BulkOutcome {
  name: string
  ok: boolean
  message: string
}

/**
 * Runs one action on each chosen row, one request after another (the API has no bulk form of these
 * actions; one at a time keeps the order of the answers and the load on the server small), and
 * collects what happened to each row.
 */
export async function runEach(
  chosen: ReadonlyMap<string, string>,
  act: (id: string) => Promise<unknown>,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = []
  for (const [id, name] of chosen) {
    try {
      await act(id)
      outcomes.push({ name, ok: true, message: '' })
    } catch (error) {
      outcomes.push({ name, ok: false, message: reasonOf(error) })
    }
  }
  return outcomes
}

function reasonOf(error: unknown): string {
  if (error instanceof ApiError) {
    const reasons = error.reasons.map((r) => r.message).filter(Boolean)
    return reasons.length > 0 ? `${error.message}: ${reasons.join('; ')}` : error.message
  }
  return error instanceof Error ? error.message : String(error)
}

/**
 * The bar over a list with rows chosen: how many, the actions, and after an action what happened
 * to each row (those that failed by name, with the API's reason).
 */
export function BulkBar({
  selection,
  noun,
  children,
  outcomes,
  done,
}: {
  selection: Selection
  /** What the rows are, plural ("orders"). */
  noun: string
  children: ReactNode
  outcomes: BulkOutcome[] | null
  /** The past tense of the last action ("confirmed"). */
  done: string
}) {
  const failed = outcomes?.filter((o) => !o.ok) ?? []
  const succeeded = (outcomes?.length ?? 0) - failed.length
  return (
    <>
      {selection.count > 0 && (
        <div className="bulk-bar" role="toolbar" aria-label={`Act on the chosen ${noun}`}>
          <span>
            {selection.count} {noun} chosen
          </span>
          {children}
          <button type="button" className="link" onClick={selection.clear}>
            Clear the choice
          </button>
        </div>
      )}
      {outcomes && (
        <div
          className={failed.length > 0 ? 'notice error' : 'notice ok'}
          role={failed.length > 0 ? 'alert' : 'status'}
        >
          <p>
            {succeeded} {done}
            {failed.length > 0 ? `, ${failed.length} failed:` : '.'}
          </p>
          {failed.length > 0 && (
            <ul className="bulk-failures">
              {failed.map((outcome) => (
                <li key={outcome.name}>
                  <strong>{outcome.name}</strong>: {outcome.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  )
}
