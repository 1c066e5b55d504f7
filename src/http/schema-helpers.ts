import { type TSchema, Type } from '@sinclair/typebox'

/** A value that may be JSON null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const Uuid = (options: { description?: string } = {}) => Type.String({ format: 'uuid', ...options })
export const DateTime = (options: { description?: string } = {}) =>
  Type.String({ format: 'date-time', ...options })
export const Email = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({ format: 'email', maxLength: 254, ...options })
