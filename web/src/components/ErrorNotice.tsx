import { describeError } from '../api/errors'

/** A failure in words: what happened, what to do, the fields the server named, and a retry. */
export function ErrorNotice({
  error,
  what,
  onRetry,
}: {
  error: unknown
  what?: string
  onRetry?: () => void
}) {
  const described = describeError(error, what)
  return (
    <div className="notice error" role="alert">
      <p className="title">{described.title}</p>
      {described.detail && described.detail !== described.title && <p>{described.detail}</p>}
      {described.reasons.length > 0 && (
        <ul>
          {described.reasons.map((reason) => (
            <li key={`${reason.field}:${reason.message}`}>
              {reason.field ? <strong>{reason.field}</strong> : null}
              {reason.field ? ': ' : ''}
              {reason.message}
            </li>
          ))}
        </ul>
      )}
      <p>{described.action}</p>
      {described.requestId && <p className="muted">Request id: {described.requestId}</p>}
      {onRetry && (
        <button type="button" className="secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  )
}
