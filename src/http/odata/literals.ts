import { invalidField } from '../../errors.js'
import type { FieldType, ResolvedField } from './fields.js'
import { at, describe } from './lexer.js'
import type { Literal } from './parser.js'

/** Casts tell PostgreSQL the parameter type; strings and enums take the column's type instead. */
export type Cast = 'numeric' | 'boolean' | 'timestamptz' | 'date' | 'uuid'

export interface Bound {
  value: string | boolean
  cast?: Cast
}

export type ValueLiteral = Exclude<Literal, { kind: 'null' }>

const EXPECTED: Record<Exclude<FieldType, 'enum'>, string> = {
  string: "a quoted string such as 'text'",
  map: "a quoted string such as 'text'",
  number: 'a number such as 42 or 3.5',
  boolean: 'true or false',
  datetime: 'a date-time such as 2026-01-31T09:15:00Z (no offset: UTC) or a date such as 2026-01-31',
  date: 'a date such as 2026-01-31',
  uuid: 'a GUID such as 01890a5d-ac96-774b-bcce-b302099a8057',
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):(\d{2}))?)?$/

/** Checks the literal suits the field's type and returns the value to bind. */
export function bindValue(literal: ValueLiteral, field: ResolvedField): Bound {
  const { type, enumValues = [] } = field.spec
  const fail = (expected: string) =>
    invalidField(
      '$filter',
      `field '${field.name}' expects ${expected}, got ${describe(literal.token)} ${at(literal.token.pos)}`,
    )

  switch (type) {
    case 'string':
    case 'map':
      if (literal.kind === 'string') return { value: literal.value }
      break
    case 'number':
      if (literal.kind === 'number') return { value: literal.value, cast: 'numeric' }
      break
    case 'boolean':
      if (literal.kind === 'boolean') return { value: literal.value, cast: 'boolean' }
      break
    case 'datetime':
      if (literal.kind === 'datetime' || literal.kind === 'string') {
        const value = normaliseDateTime(literal.value)
        if (value) return { value, cast: 'timestamptz' }
      }
      break
    case 'date':
      // A calendar date column (no time of day, no time zone): compared as a date.
      if (
        (literal.kind === 'datetime' || literal.kind === 'string') &&
        /^\d{4}-\d{2}-\d{2}$/.test(literal.value)
      ) {
        if (normaliseDateTime(literal.value)) return { value: literal.value, cast: 'date' }
      }
      break
    case 'uuid':
      if ((literal.kind === 'guid' || literal.kind === 'string') && UUID.test(literal.value)) {
        return { value: literal.value.toLowerCase(), cast: 'uuid' }
      }
      break
    case 'enum': {
      const name = enumName(literal, enumValues)
      if (name !== undefined) return { value: name }
      throw fail(`one of ${enumValues.join(', ')} (or its 0-based index)`)
    }
  }
  throw fail(EXPECTED[type])
}

/** Enum literals match by name in any case, or by 0-based index; the stored form is the declared name. */
function enumName(literal: ValueLiteral, values: readonly string[]): string | undefined {
  if (literal.kind === 'string') {
    const lower = literal.value.toLowerCase()
    return values.find((v) => v.toLowerCase() === lower)
  }
  if (literal.kind === 'number' && /^\d+$/.test(literal.value)) return values[Number(literal.value)]
  return undefined
}

/**
 * Validates an ISO 8601 date or date-time and returns text PostgreSQL reads unambiguously.
 * A time without an offset is UTC (as the API's date-times are) and a bare date means midnight
 * UTC, so the result never depends on the database session's time zone. Fractional seconds are kept as written (PostgreSQL keeps µs).
 */
export function normaliseDateTime(text: string): string | undefined {
  const upper = text.toUpperCase()
  const m = DATETIME.exec(upper)
  if (!m) return undefined
  const [, year, month, day, hour, minute, second = '0', offset, offHour = '0', offMinute = '0'] = m
  const y = Number(year)
  const mo = Number(month)
  const d = Number(day)
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0
  // Year 0 does not exist for PostgreSQL; an out-of-range month gives daysInMonth 0 and fails here.
  if (y < 1 || d < 1 || d > daysInMonth) return undefined
  if (hour === undefined) return `${upper}T00:00:00Z`
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined
  if (Number(offHour) > 23 || Number(offMinute) > 59) return undefined
  return offset === undefined ? `${upper}Z` : upper
}
