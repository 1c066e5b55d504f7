/**
 * What the wrappers of a pooled connection's `query` (the audit actor, prepared statements, the
 * cluster router) read of a statement on its way: pg's `query` signature, the statement's text,
 * and whether it begins or ends a transaction.
 */
export type ClientQuery = (text: unknown, values?: unknown, callback?: unknown) => unknown

/** The SQL text of a `query` call: a string, or a query config's `text`. */
export const statementText = (text: unknown): unknown =>
  typeof text === 'string' ? text : (text as { text?: unknown } | null)?.text

export const BEGINS_TRANSACTION = /^\s*(begin|start\s+transaction)\b/i
/** PREPARE TRANSACTION ends the session's transaction too (db/clusters.ts: two-phase commit). */
export const ENDS_TRANSACTION = /^\s*(commit|end|rollback|prepare\s+transaction)\b/i

/** An organisation schema named in a statement's text (schema names are `org_` + base32). */
export const NAMES_ORGANISATION_SCHEMA = /\borg_[a-z0-9]{8,32}\b/
