import { type Static, Type } from '@sinclair/typebox'

export const MAX_QUERY_LENGTH = 10_000
export const DEFAULT_MAX_ROWS = 1_000
export const MAX_ROWS = 10_000
/** Serialised rows beyond this are cut off (truncated: true). */
export const MAX_RESULT_BYTES = 2_000_000

export const ExecuteSqlRequest = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: MAX_QUERY_LENGTH,
      description: 'one SELECT (WITH allowed)',
    }),
    parameters: Type.Optional(
      Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
        maxItems: 100,
        description: 'values bound to $1..$n',
      }),
    ),
    maxRows: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_ROWS, description: `default ${DEFAULT_MAX_ROWS}` }),
    ),
  },
  { additionalProperties: false },
)
export type ExecuteSqlRequest = Static<typeof ExecuteSqlRequest>

export const SqlColumn = Type.Object({ name: Type.String(), dataType: Type.String() })

export const SqlQueryResponse = Type.Object({
  columns: Type.Array(SqlColumn),
  rows: Type.Array(Type.Array(Type.Unknown())),
  rowCount: Type.Integer(),
  truncated: Type.Boolean(),
  elapsedMs: Type.Number(),
})
export type SqlQueryResponse = Static<typeof SqlQueryResponse>

export const SqlSchemaResponse = Type.Object({
  tables: Type.Array(Type.Object({ name: Type.String(), columns: Type.Array(SqlColumn) })),
})
export type SqlSchemaResponse = Static<typeof SqlSchemaResponse>
