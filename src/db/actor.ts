import { AsyncLocalStorage } from 'node:async_hooks'
import type { DatabasePool } from './lane-pool.js'
import { BEGINS_TRANSACTION, type ClientQuery, ENDS_TRANSACTION, statementText } from './statement-text.js'

/**
 * Who a request acts as, for the audit log: the database triggers that write it
 * (modules/audit/audit-log) read the `cartage.actor` setting of the session that makes the change.
 * The HTTP kernel opens a holder per request that may write (any method but GET, HEAD and OPTIONS:
 * what a read writes, such as a notification it raises, is the system's); the auth hook fills it
 * once the credential is known.
 * Every statement is preceded, on its connection, by setting `cartage.actor` when the connection
 * last carried another actor, so no service has to pass the actor to its transactions: a change
 * made in any transaction, by any module, is attributed to the request that made it.
 */
interface ActorHolder {
  /** `<User|ApiKey>|<id>|<request id>`; the kind and id empty until the credential is known. */
  actor: string
}

const requestActor = new AsyncLocalStorage<ActorHolder>()

/**
 * Before Node 24, AsyncLocalStorage propagates through async hooks, which slow every promise of the
 * process while any storage is enabled (a tenth of a read's throughput, bench/RESULTS.md); Node 24
 * propagates it at no such cost. So only requests that may write get a holder, and before Node 24
 * the storage is disabled again whenever none of them is in flight.
 */
const DISABLE_WHEN_IDLE = Number(process.versions.node.split('.')[0]) < 24
/** The requests holding an actor, by identity (a client may send the same request id twice). */
const holding = new Set<object>()

export type ActorKind = 'User' | 'ApiKey'

/** Runs `next` (the rest of the request `request`, which may write) with a holder for its actor. */
export function withActorHolder<T>(request: object, requestId: string, next: () => T): T {
  holding.add(request)
  return requestActor.run({ actor: `||${requestId}` }, next)
}

/**
 * Ends a request's holder once its handler is done (its response is being sent): its changes are
 * committed by then. A request whose client went away keeps its holder until its handler answers.
 */
export function releaseActorHolder(request: object): void {
  if (holding.delete(request) && holding.size === 0 && DISABLE_WHEN_IDLE) requestActor.disable()
}

/** Names the actor of the current request (no-op outside one). */
export function setActor(kind: ActorKind, id: string, requestId: string): void {
  const holder = requestActor.getStore()
  if (holder) holder.actor = `${kind}|${id}|${requestId}`
}

/** The setting's value for the current context: empty outside a request (the system: migrations, jobs). */
export const currentActor = (): string => requestActor.getStore()?.actor ?? ''

const SET_ACTOR = "SELECT set_config('cartage.actor', $1, false)"
/** A rollback undoes a setting made inside the transaction: the connection's value is then unknown. */
const ROLLBACK = /^\s*rollback\b/i
/**
 * A statement on its own that writes no row, so no trigger needs the actor: a read, or LISTEN. A
 * LISTEN held back behind the setting would reach the server after the statement the connection's
 * user sends next, inside its transaction: lost if that transaction rolls back, and a transaction
 * that has run LISTEN cannot be prepared (two-phase commit across clusters).
 */
const READ = /^\s*(select|show|listen|unlisten)\b/i

/**
 * Wraps each new connection's `query` so the connection carries the current actor. Set at session
 * level, and only where a row can change: before a transaction begins, and before a statement on
 * its own that is not a read. The actor names the request, so it changes with every request; a read
 * (most requests) sends nothing more than before. (A function called by a bare SELECT outside a
 * transaction must not write audited rows: the platform's writing functions run in transactions.)
 */
export function useActorSetting(pool: DatabasePool, mode: 'session' | 'transaction' = 'session'): void {
  if (mode === 'transaction') {
    useActorPerTransaction(pool)
    return
  }
  pool.on('connect', (client) => {
    let carried: string | undefined
    let inTransaction = false
    const target = client as unknown as { query: ClientQuery }
    const query = target.query.bind(client) as ClientQuery
    target.query = (text, values, callback) => {
      const sqlText = statementText(text)
      if (typeof sqlText === 'string' && ENDS_TRANSACTION.test(sqlText)) {
        if (ROLLBACK.test(sqlText)) carried = undefined
        inTransaction = false
        return query(text, values, callback)
      }
      const begins = typeof sqlText === 'string' && BEGINS_TRANSACTION.test(sqlText)
      const wanted = currentActor()
      // A callback or a submittable (a cursor: reads only) goes as it is: the caller needs what query returns.
      const submittable = typeof (text as { submit?: unknown } | null)?.submit === 'function'
      const needed = typeof sqlText === 'string' && (begins || (!inTransaction && !READ.test(sqlText)))
      if (begins) inTransaction = true
      if (!needed || carried === wanted || callback !== undefined || submittable)
        return query(text, values, callback)
      carried = wanted
      const setting = (query(SET_ACTOR, [wanted]) as Promise<unknown>).catch(() => {
        carried = undefined
      })
      // Sent once the setting is answered (node-postgres would queue it too, but no longer wants to).
      return setting.then(() => query(text, values))
    }
  })
}

const SET_ACTOR_LOCAL = "SELECT set_config('cartage.actor', $1, true)"

/**
 * Behind a pooler in transaction mode, consecutive transactions of one client connection may run
 * on different server sessions, so a session-level setting could follow the wrong request. The
 * actor is then set for the transaction only (`set_config(..., true)`): right after BEGIN, and a
 * write sent on its own with an actor runs in a transaction of its own that sets it first.
 */
function useActorPerTransaction(pool: DatabasePool): void {
  pool.on('connect', (client) => {
    let inTransaction = false
    const target = client as unknown as { query: ClientQuery }
    const query = target.query.bind(client) as ClientQuery
    const send = (text: unknown, values?: unknown) => query(text, values) as Promise<unknown>
    target.query = (text, values, callback) => {
      const sqlText = statementText(text)
      const submittable = typeof (text as { submit?: unknown } | null)?.submit === 'function'
      if (typeof sqlText !== 'string' || callback !== undefined || submittable)
        return query(text, values, callback)
      if (ENDS_TRANSACTION.test(sqlText)) {
        inTransaction = false
        return query(text, values, callback)
      }
      const wanted = currentActor()
      if (BEGINS_TRANSACTION.test(sqlText)) {
        inTransaction = true
        if (wanted === '') return query(text, values)
        return send(text, values).then(async (result) => {
          await send(SET_ACTOR_LOCAL, [wanted])
          return result
        })
      }
      if (inTransaction || wanted === '' || READ.test(sqlText)) return query(text, values)
      return (async () => {
        await send('BEGIN')
        try {
          await send(SET_ACTOR_LOCAL, [wanted])
          const result = await send(text, values)
          await send('COMMIT')
          return result
        } catch (error) {
          await send('ROLLBACK').catch(() => {})
          throw error
        }
      })()
    }
  })
}
