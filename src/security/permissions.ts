import { decodeEnum } from '../enums.js'
import type { Reason } from '../errors.js'

/**
 * PermissionModule: 1-based, append-only. `M<n>` (the module numbers of docs/api-guide.md) is PERMISSION_MODULES[n - 1].
 */
export const PERMISSION_MODULES = [
  'Orders',
  'Shipments',
  'Customers',
  'Products',
  'Vehicles',
  'Integrations',
  'TeamAndRoles',
  'Billing',
  'Workflows',
  'Settings',
  'Insights',
  'Suppliers',
  'PurchaseOrders',
  'WorkOrders',
  'TransferOrders',
  'Schedule',
] as const
export type PermissionModule = (typeof PERMISSION_MODULES)[number]

/** Bits of a module's permission mask. */
export const ACTIONS = { View: 1, Modify: 2, Delete: 4 } as const
export type Action = keyof typeof ACTIONS
export const ALL_ACTIONS = 7

/** Module -> bitmask. A module absent from the map has no rights. */
export type PermissionSet = Readonly<Partial<Record<PermissionModule, number>>>

export const BUILT_IN_ROLES = ['Owner', 'Admin', 'Member'] as const
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number]

const everything = (mask: (module: PermissionModule) => number): PermissionSet =>
  Object.fromEntries(PERMISSION_MODULES.map((m) => [m, mask(m)]))

/** Owner: everything. Admin: everything but Billing. Member: view everything. */
export const ROLE_PERMISSIONS: Readonly<Record<BuiltInRole, PermissionSet>> = {
  Owner: everything(() => ALL_ACTIONS),
  Admin: everything((m) => (m === 'Billing' ? 0 : ALL_ACTIONS)),
  Member: everything(() => ACTIONS.View),
}

export const can = (permissions: PermissionSet, module: PermissionModule, action: Action): boolean =>
  ((permissions[module] ?? 0) & ACTIONS[action]) !== 0

/** Rights present in both sets: an API key or a minted token never exceeds the one who made it. */
export function intersect(a: PermissionSet, b: PermissionSet | null): PermissionSet {
  if (b === null) return a
  return Object.fromEntries(
    PERMISSION_MODULES.map((m) => [m, (a[m] ?? 0) & (b[m] ?? 0)]).filter(([, v]) => v !== 0),
  )
}

/** True when every right in `inner` is also in `outer`. */
export const isSubset = (inner: PermissionSet, outer: PermissionSet): boolean =>
  PERMISSION_MODULES.every((m) => ((inner[m] ?? 0) & ~(outer[m] ?? 0)) === 0)

/**
 * The module a key of a permission map names, read as every PermissionModule input is (the enum
 * rule): its name in any letter case, or its number, the 1-based position in PERMISSION_MODULES
 * ("3" is Customers). Undefined otherwise.
 */
export const moduleNamed = (key: string): PermissionModule | undefined =>
  decodeEnum({ names: PERMISSION_MODULES, base: 1 }, key) as PermissionModule | undefined

/**
 * Validates a scopes object `{ "<ModuleName>": bitmask }` (names matched case-insensitively, or a
 * module's number) and returns it with canonical names, or the reasons it is invalid.
 */
export function parsePermissionMap(
  field: string,
  value: unknown,
): { permissions?: PermissionSet; reasons: Reason[] } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { reasons: [{ field, message: 'must be a JSON object of module name to bitmask 0..7' }] }
  }
  const reasons: Reason[] = []
  const permissions: Partial<Record<PermissionModule, number>> = {}
  const seen = new Map<PermissionModule, string>()
  for (const [name, mask] of Object.entries(value)) {
    const module = moduleNamed(name)
    const earlier = module && seen.get(module)
    if (!module) {
      reasons.push({
        field: `${field}.${name}`,
        message: `unknown module; known: ${PERMISSION_MODULES.map((m, i) => `${m} (${i + 1})`).join(', ')}`,
      })
    } else if (earlier !== undefined) {
      reasons.push({ field: `${field}.${name}`, message: `names the same module as ${earlier} (${module})` })
    } else if (!Number.isInteger(mask) || (mask as number) < 0 || (mask as number) > ALL_ACTIONS) {
      reasons.push({
        field: `${field}.${name}`,
        message: 'must be an integer bitmask from 0 to 7 (1 view, 2 modify, 4 delete)',
      })
    } else {
      permissions[module] = mask as number
    }
    if (module && earlier === undefined) seen.set(module, name)
  }
  return reasons.length > 0 ? { reasons } : { permissions, reasons }
}

/** API key scopes arrive as JSON text; absent/null/blank = unrestricted (null). */
export function parseScopesText(
  field: string,
  text: string | null | undefined,
): { scopes?: PermissionSet | null; reasons: Reason[] } {
  if (text === undefined || text === null || text.trim() === '') return { scopes: null, reasons: [] }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { reasons: [{ field, message: 'must be JSON text such as {"Orders": 7}' }] }
  }
  const { permissions, reasons } = parsePermissionMap(field, value)
  return reasons.length > 0 ? { reasons } : { scopes: permissions ?? {}, reasons }
}

/**
 * An API key's scopes as stored (the JSON text as given, validated at creation): module names in
 * any letter case or module numbers, read into canonical names; null = unrestricted. Parsed
 * defensively all the same: text that is not a JSON object grants nothing.
 */
export function readStoredScopes(text: string | null): PermissionSet | null {
  if (!text?.trim()) return null
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return {}
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {}
  const out: Partial<Record<PermissionModule, number>> = {}
  for (const [name, mask] of Object.entries(raw)) {
    const module = moduleNamed(name)
    if (module && Number.isInteger(mask)) out[module] = (mask as number) & ALL_ACTIONS
  }
  return out
}

/** Every module by name with its bitmask (0 where the set has none), so clients need not fill gaps. */
export const everyModule = (permissions: PermissionSet): Record<PermissionModule, number> =>
  Object.fromEntries(PERMISSION_MODULES.map((m) => [m, permissions[m] ?? 0])) as Record<
    PermissionModule,
    number
  >
