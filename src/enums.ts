/**
 * The platform's enum rule: values go out as PascalCase names; on the way in a name in any letter
 * case or the value's number is accepted and read as the name. The HTTP kernel applies it to
 * bodies, queries and paths (http/enums.ts); permissions apply it to module keys.
 */
export interface EnumSpec {
  names: readonly string[]
  /** Number of the first name: 0 for most enums, 1 for PermissionModule (its codes are M1..M16). */
  base: 0 | 1
}

export function decodeEnum(spec: EnumSpec, value: unknown): string | undefined {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    return Number.isInteger(Number(value)) ? spec.names[Number(value) - spec.base] : undefined
  }
  if (typeof value !== 'string') return undefined
  const lower = value.toLowerCase()
  return spec.names.find((n) => n.toLowerCase() === lower)
}

export function enumMessage(spec: EnumSpec): string {
  return `must be one of ${spec.names.join(', ')} (any letter case) or a number from ${spec.base} to ${spec.names.length - 1 + spec.base}`
}
