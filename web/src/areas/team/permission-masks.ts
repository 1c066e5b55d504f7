/** A module's rights as the API stores them: a bitmask of 1 view, 2 modify, 4 delete. */
export const LEVELS = [
  { mask: 0, label: 'None' },
  { mask: 1, label: 'View' },
  { mask: 3, label: 'View and modify' },
  { mask: 7, label: 'View, modify and delete' },
] as const

/** A mask in words, including one the levels above do not name (e.g. modify without view). */
export function maskWords(mask: number): string {
  const level = LEVELS.find((l) => l.mask === mask)
  if (level) return level.label
  const parts = [mask & 1 ? 'view' : '', mask & 2 ? 'modify' : '', mask & 4 ? 'delete' : ''].filter(Boolean)
  return parts.length ? parts.join(', ') : 'None'
}

/** Module names in words: `PurchaseOrders` → `Purchase orders`, `TeamAndRoles` → `Team and roles`. */
export function moduleWords(name: string): string {
  const spaced = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}
