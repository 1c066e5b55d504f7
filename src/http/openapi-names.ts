/**
 * Names of the records in the published OpenAPI documents, by operationId (each module declares
 * those of its operations in its `schemaNames`): the request body and
 * the record in the success envelope (`data`, or the items of a paged `data`). Names follow the
 * platform's contract where it gives them (e.g. `CreateCustomerRequest`, `SessionResponse`) and
 * the same pattern where it does not (`<Operation>Command` bodies, `<Record>Response` records).
 *
 * A schema may also name itself with a TypeBox `title` where it is defined, which wins over this
 * table. An operation in neither gets `<OperationId>Request` / `<OperationId>Response`, so no
 * generated client ever sees an anonymous type.
 */
export type OperationSchemaNames = Readonly<Record<string, { body?: string; data?: string }>>

/** The kernel's own operations (health probes). */
export const HEALTH_SCHEMA_NAMES: OperationSchemaNames = {
  Live: { data: 'HealthResponse' },
  Ready: { data: 'HealthResponse' },
}

/** `data` as the record of each of `operationIds`: one record named once for the operations that answer it. */
export const returning = (data: string, operationIds: readonly string[]): OperationSchemaNames =>
  Object.fromEntries(operationIds.map((id) => [id, { data }]))
