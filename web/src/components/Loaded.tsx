import type { ReactNode } from 'react'
import { ErrorNotice } from './ErrorNotice'
import { Loading } from './Loading'

/**
 * A query's answer once it is there: its failure in words with a retry, a spinner while it loads,
 * then `children` with the data. `what` names the work ("Loading customers").
 */
export function Loaded<Data>({
  query,
  what,
  children,
}: {
  query: { data: Data | undefined; error: unknown; refetch: () => unknown }
  what?: string
  children: (data: Data) => ReactNode
}) {
  if (query.error) return <ErrorNotice error={query.error} what={what} onRetry={() => void query.refetch()} />
  if (query.data === undefined) return <Loading label={what ? `${what}…` : undefined} />
  return <>{children(query.data)}</>
}
