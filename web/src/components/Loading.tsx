/** Something is on its way: said to screen readers once, shown with a spinner. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  )
}

/** Long work in steps: a progress bar that says which step is running. */
export function Progress({ label, step, steps }: { label: string; step: number; steps: readonly string[] }) {
  const current = steps[Math.min(step, steps.length - 1)] ?? ''
  return (
    <div role="status" className="card">
      <p>
        <strong>{label}</strong>: {current} ({Math.min(step + 1, steps.length)} of {steps.length})
      </p>
      <progress max={steps.length} value={step} aria-label={label} />
    </div>
  )
}
