/**
 * The one-time token of a hand-off link: `<console>/#/handoff?token=<token>` (the fragment never
 * reaches a server or its logs). Removes it from the address, leaving `#/`.
 */
export function takeHandoffToken(
  location: Pick<Location, 'hash' | 'pathname' | 'search'>,
  history: Pick<History, 'replaceState'>,
): string | null {
  const match = /^#\/?handoff\?(.*)$/.exec(location.hash)
  if (!match) return null
  const token = new URLSearchParams(match[1]).get('token')
  history.replaceState(null, '', `${location.pathname}${location.search}#/`)
  return token && token.length <= 200 ? token : null
}
