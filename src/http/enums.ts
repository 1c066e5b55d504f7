import { type TUnsafe, Type } from '@sinclair/typebox'
import { decodeEnum, type EnumSpec, enumMessage } from '../enums.js'
import { invalidField } from '../errors.js'

export { decodeEnum, type EnumSpec, enumMessage }

/** The Ajv keyword of enum schemas (validated by input-rules.ts, published as `enum` by openapi.ts). */
export const ENUM_KEYWORD = 'x-enum'

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
