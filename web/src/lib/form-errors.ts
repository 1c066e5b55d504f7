import { ApiError } from '../api/errors'

/**
 * The server's reasons by field, for showing each at its control. A reason on a nested field
 * (`lines.2.quantity`, `billingAddress.city`) is also filed under each shorter prefix that a form
 * may show as one control, so it is never lost; a reason the form has no control for stays in the
 * error notice, which lists them all.
 */
export function problemsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {}
  const found: Record<string, string> = {}
  for (const reason of error.reasons) {
    if (!reason.field) continue
    const parts = reason.field.split(/[./[\]]+/).filter(Boolean)
    for (let end = parts.length; end > 0; end--) {
      const key = parts.slice(0, end).join('.')
      found[key] ??= reason.message
    }
  }
  return found
}

/** Client-side problems first (they stop the request), else the server's. */
export function mergedProblems(local: Record<string, string>, error: unknown): Record<string, string> {
  return { ...problemsOf(error), ...local }
}
