import type { ColumnType } from 'kysely'

/**
 * Column types shared by the table declarations (`*.tables.ts`): how a PostgreSQL type reads back
 * through the driver and what a write may give.
 */

/** timestamptz that defaults in SQL: read as a Date, written as a Date or ISO text, or left out. */
export type Stamp = ColumnType<Date, Date | string | undefined, Date | string>
export type OptionalStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
/** timestamptz without a default: must be given on insert. */
export type When = ColumnType<Date, Date | string, Date | string>
export type OptionalWhen = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
/** `numeric`: read as an exact decimal string, written as number or string. */
export type Decimal = ColumnType<string, number | string, number | string>
export type DefaultDecimal = ColumnType<string, number | string | undefined, number | string>
export type OptionalDecimal = ColumnType<
  string | null,
  number | string | null | undefined,
  number | string | null
>
/** jsonb read as a parsed value, written as JSON text. */
export type OptionalJson<T> = ColumnType<T | null, string | null | undefined, string | null>
/** An address as stored in jsonb (see the Address schema of the API). */
export type Address = Record<string, unknown>
