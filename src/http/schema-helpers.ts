import { type Static, type TSchema, type TUnsafe, Type } from '@sinclair/typebox'

/**
 * A value that may be JSON null. Written as `type: [T, 'null']` rather than `anyOf`, because with
 * Ajv's type coercion (query strings and paths; bodies are not coerced) an `anyOf` would quietly
 * turn an invalid 0, "" or false into null instead of rejecting it.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type } = schema as { type?: unknown }
  if (typeof type === 'string' && type !== 'null')
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] })
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]))
}

export const Uuid = (options: { description?: string } = {}) => Type.String({ format: 'uuid', ...options })
export const DateTime = (options: { description?: string } = {}) =>
  Type.String({ format: 'date-time', ...options })
export const Email = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({ format: 'email', maxLength: 254, ...options })

/**
 * A calendar date (`yyyy-mm-dd`) or a date-time, for fields that clients generated with a single
 * DateTime type send either way; the operation says what a date means (a day in the business's
 * time zone, the end of that day...). A date-time without an offset is UTC, as everywhere.
 */
export const DateOrDateTime = (options: { description?: string } = {}) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], options)

/** True for the date form of a DateOrDateTime value. */
export const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value)
