import { type TUnsafe, Type } from '@sinclair/typebox'
import { invalidField } from './errors.js'

/**
 * Enum codec: values go out as PascalCase names; on the way in a name in any
 * letter case or the value's number is accepted and normalised to the name before the handler
 * sees it. Implemented as an Ajv keyword so it works in bodies, queries and paths alike.
 */
export interface EnumSpec {
  names: readonly string[]
  /** Number of the first name: 0 for most enums, 1 for PermissionModule (its codes are M1..M16). */
  base: 0 | 1
}

export const ENUM_KEYWORD = 'x-enum'

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

/** Parses an enum read by hand (e.g. a path segment); throws a 400 naming `field`. */
export function parseEnum<T extends string>(spec: EnumSpec, field: string, value: unknown): T {
  const name = decodeEnum(spec, value)
  if (name === undefined) throw invalidField(field, enumMessage(spec))
  return name as T
}

/** A TypeBox schema for an enum field; `T` is the union of the names. */
export function EnumType<const T extends readonly string[]>(
  names: T,
  options: { base?: 0 | 1; description?: string } = {},
): TUnsafe<T[number]> {
  const spec: EnumSpec = { names, base: options.base ?? 0 }
  return Type.Unsafe<T[number]>({
    type: 'string',
    [ENUM_KEYWORD]: spec,
    description: [
      options.description,
      `One of: ${names.join(', ')}. Input also accepts any letter case, or the number (${spec.base} = ${names[0]}).`,
    ]
      .filter(Boolean)
      .join(' '),
  })
}

interface KeywordContext {
  parentData: Record<string | number, unknown>
  parentDataProperty: string | number
}
interface KeywordValidate {
  (data: unknown, ctx?: KeywordContext): boolean
  errors?: { keyword: string; message: string; params: Record<string, unknown> }[] | null
}
interface AjvLike {
  addKeyword(definition: {
    keyword: string
    modifying: boolean
    errors: boolean
    schemaType: string
    compile: (schema: EnumSpec) => KeywordValidate
  }): unknown
}

/** Ajv plugin registering the enum keyword; Fastify passes its Ajv instances here. */
export function enumKeywordPlugin<A>(instance: A): A {
  const ajv = instance as unknown as AjvLike
  ajv.addKeyword({
    keyword: ENUM_KEYWORD,
    modifying: true,
    errors: true,
    schemaType: 'object',
    compile(spec) {
      const validate: KeywordValidate = (data, ctx) => {
        // null is for the schema's `type` to allow or refuse (Nullable enums).
        if (data === null) return true
        const name = decodeEnum(spec, data)
        if (name === undefined) {
          validate.errors = [{ keyword: ENUM_KEYWORD, message: enumMessage(spec), params: {} }]
          return false
        }
        if (ctx?.parentData) ctx.parentData[ctx.parentDataProperty] = name
        return true
      }
      return validate
    },
  })
  return instance
}
