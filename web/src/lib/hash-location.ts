import { useSyncExternalStore } from 'react'

// The console's addresses are fragments: `#/customers?status=Active&page=2`. The path before `?`
// is the route; the query after it is a list's state (filters, sort, page, search), so Back, a
// reload and a shared link keep it. (wouter's own hash hook would put the query before the `#`,
// where it would follow the person to every other page.)

const listeners = new Set<() => void>()
const notify = () => {
  for (const listener of listeners) listener()
}
function subscribe(listener: () => void) {
  if (listeners.size === 0) addEventListener('hashchange', notify)
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) removeEventListener('hashchange', notify)
  }
}

/** The route and the query of a fragment (`#/a/b?x=1` -> `/a/b`, `x=1`). */
export function splitHash(hash: string): { path: string; query: string } {
  const bare = hash.replace(/^#?\/?/, '')
  const at = bare.indexOf('?')
  return { path: `/${at < 0 ? bare : bare.slice(0, at)}`, query: at < 0 ? '' : bare.slice(at + 1) }
}

const currentPath = () => splitHash(location.hash).path
const currentQuery = () => splitHash(location.hash).query

/** Goes to `to` (a path, with a query or not); `replace` leaves no history entry (typing in a search). */
export function navigate(to: string, { replace = false }: { replace?: boolean } = {}) {
  const url = new URL(location.href)
  url.hash = `/${to.replace(/^#?\/?/, '')}`
  if (url.href === location.href) return
  history[replace ? 'replaceState' : 'pushState'](null, '', url.href)
  dispatchEvent(new HashChangeEvent('hashchange'))
}

/** wouter's location hook: the route only. */
export const useHashPath = (): [string, typeof navigate] => [
  useSyncExternalStore(subscribe, currentPath, () => '/'),
  navigate,
]
useHashPath.hrefs = (href: string) => `#${href}`

/** The query of the fragment, as URLSearchParams. */
export function useHashQuery(): URLSearchParams {
  return new URLSearchParams(useSyncExternalStore(subscribe, currentQuery, () => ''))
}

/** Replaces the fragment's query, keeping the route. */
export function setHashQuery(params: URLSearchParams, options: { replace?: boolean } = {}) {
  const query = params.toString()
  navigate(`${currentPath()}${query ? `?${query}` : ''}`, options)
}
