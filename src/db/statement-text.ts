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

/** What a statement not sent to the server answers (pg's result of nothing). */
export const EMPTY_RESULT = { command: '', rowCount: 0, rows: [], fields: [], oid: 0 }

/** A statement kept back until a connection that picks its server connection late has picked it. */
export interface HeldStatement {
  text: unknown
  values: unknown
}

/**
 * For a connection that picks its server connection at its first real statement (db/clusters.ts,
 * db/fair-pool.ts): a BEGIN is held until then, and a transaction that sent nothing else ends with
 * nothing to end. The answer to such a statement, or undefined for one that must be sent.
 */
export function answerWithoutSending(
  held: HeldStatement[],
  sqlText: string,
  text: unknown,
  values: unknown,
): Promise<typeof EMPTY_RESULT> | undefined {
  if (BEGINS_TRANSACTION.test(sqlText)) {
    held.push({ text, values })
    return Promise.resolve(EMPTY_RESULT)
  }
  if (ENDS_TRANSACTION.test(sqlText) && held.length > 0) {
    held.length = 0
    return Promise.resolve(EMPTY_RESULT)
  }
  return undefined
}
