import type { ReactNode } from 'react'
import { words } from '../lib/format'
import { Field } from './Field'
import { SavedViews } from './SavedViews'

/**
 * The search and filters above a list, a landmark screen readers can jump to, with the list's
 * saved views (its state in the address saved under a name) after them.
 */
export function ListToolbar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <search className="toolbar" aria-label={label}>
      {children}
      <SavedViews />
    </search>
  )
}

/** The search box of a list; `hint` says what it searches. */
export function SearchField({
  hint,
  value,
  onChange,
}: {
  hint: string
  value: string
  onChange: (value: string) => void
}) {
  return (
    <div className="grow">
      <Field label="Search" hint={hint}>
        {(control) => (
          <input
            {...control}
            type="search"
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
        )}
      </Field>
    </div>
  )
}

export type Choice = string | { value: string; label: string }

/** A filter by one of a few values, "Any" first; an enum's names are shown in words. */
export function ChoiceFilter({
  label,
  value,
  onChange,
  choices,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  choices: readonly Choice[]
}) {
  return (
    <Field label={label}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">Any</option>
          {choices.map((choice) =>
            typeof choice === 'string' ? (
              <option key={choice} value={choice}>
                {words(choice)}
              </option>
            ) : (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ),
          )}
        </select>
      )}
    </Field>
  )
}

/** A filter by day (the browser's date picker). */
export function DayFilter({
  label,
  value,
  onChange,
}: {
  label: string
  value: string
  onChange: (value: string) => void
}) {
  return (
    <Field label={label}>
      {(control) => (
        <input {...control} type="date" value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </Field>
  )
}
