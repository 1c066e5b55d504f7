import { type ReactElement, useId } from 'react'

export interface FieldControlProps {
  id: string
  'aria-describedby': string | undefined
  'aria-invalid': boolean | undefined
}

/** A labelled control with its hint and its problem, tied to it for screen readers. */
export function Field({
  label,
  hint,
  problem,
  children,
}: {
  label: string
  hint?: string | undefined
  problem?: string | null | undefined
  children: (control: FieldControlProps) => ReactElement
}) {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const problemId = problem ? `${id}-problem` : undefined
  const describedBy = [hintId, problemId].filter(Boolean).join(' ') || undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': problem ? true : undefined })}
      {hint && (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      )}
      {problem && (
        <span className="problem" id={problemId}>
          {problem}
        </span>
      )}
    </div>
  )
}
