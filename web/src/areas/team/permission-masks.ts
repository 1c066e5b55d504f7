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

/**
 * A role's or key's rights in a line: each level with its modules, a level most modules share
 * written as "every module but …" ("View, modify and delete: every module but Billing").
 */
export function rightsWords(permissions: Record<string, number>): string {
  const modules = Object.keys(permissions)
  const byMask = new Map<number, string[]>()
  for (const [module, mask] of Object.entries(permissions)) {
    if (mask > 0) byMask.set(mask, [...(byMask.get(mask) ?? []), module])
  }
  if (byMask.size === 0) return 'None'
  return [...byMask.entries()]
    .sort(([a], [b]) => b - a)
    .map(([mask, granted]) => {
      const others = modules.filter((m) => !granted.includes(m))
      const which =
        others.length === 0
          ? 'every module'
          : granted.length > modules.length / 2 && others.length <= 3
            ? `every module but ${others.map(moduleWords).join(', ')}`
            : granted.map(moduleWords).join(', ')
      return `${maskWords(mask)}: ${which}`
    })
    .join('; ')
}
