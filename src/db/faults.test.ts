import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type Kysely, sql, type Transaction } from 'kysely'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { testDatabaseUrl } from '../../test/test-database.js'
import { openDatabase } from './database.js'
import { databaseFault } from './faults.js'
import type { Tables } from './tables.js'

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('databaseFault', () => {
  it('tells an unreachable database and a full disk from errors of the request', () => {
    expect(databaseFault(coded('ECONNREFUSED'))).toBe('unavailable')
    expect(databaseFault(coded('57P01', 'terminating connection due to administrator command'))).toBe(
      'unavailable',
    )
    expect(databaseFault(coded('53300', 'sorry, too many clients already'))).toBe('unavailable')
    // A standby being promoted, reached a moment early.
    expect(databaseFault(coded('25006', 'cannot execute INSERT in a read-only transaction'))).toBe(
      'unavailable',
    )
    expect(databaseFault(coded('08006'))).toBe('unavailable')
    expect(databaseFault(new Error('Connection terminated unexpectedly'))).toBe('unavailable')
    expect(databaseFault(new Error('timeout exceeded when trying to connect'))).toBe('unavailable')
    expect(databaseFault(coded('53100', 'could not extend file: No space left on device'))).toBe(
      'storage_full',
    )
    expect(databaseFault(coded('ENOSPC'))).toBe('storage_full')
    // Wrapped (a cause chain).
    expect(databaseFault(new Error('outer', { cause: coded('ECONNRESET') }))).toBe('unavailable')
    // The request's own faults stay what they are.
    expect(databaseFault(coded('23505', 'duplicate key value'))).toBeUndefined()
    expect(databaseFault(coded('22P02', 'invalid input syntax'))).toBeUndefined()
    expect(databaseFault(new Error('anything else'))).toBeUndefined()
    expect(databaseFault('not an error')).toBeUndefined()
  })
})

// A connection lost while held between two statements, as every connection is when the primary is
// killed or fails over: the process carries on, the holder's next statement fails as unavailable,
// and the pool opens a new connection for the next caller. (Unheard, the connection's error would
// be an uncaught exception, which fails the run.)
describe.runIf(testDatabaseUrl())('a connection lost inside a transaction (PostgreSQL)', () => {
  it('fails that transaction as unavailable without ending the process, and the next one runs', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-lost-connection-'))
    const database = await openDatabase({
      databaseUrl: testDatabaseUrl(),
      dataDir,
      poolSize: 1,
      migrations: { global: [], tenant: [] },
    })
    const other = new pg.Client({ connectionString: testDatabaseUrl() })
    await other.connect()
    try {
      const pidOf = async (db: Kysely<Tables> | Transaction<Tables>) =>
        (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db)).rows[0]?.pid as number
      let lostPid = 0
      const failed = await database.db
        .transaction()
        .execute(async (trx) => {
          lostPid = await pidOf(trx)
          await other.query('SELECT pg_terminate_backend($1)', [lostPid])
          // The connection's end arrives while no statement is running on it.
          await new Promise((resolve) => setTimeout(resolve, 300))
          await sql`SELECT 1`.execute(trx)
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        )
      expect(failed).toBeInstanceOf(Error)
      expect(databaseFault(failed)).toBe('unavailable')
      // The lost connection was discarded: the next transaction runs on a new one.
      const pid = await database.db.transaction().execute((trx) => pidOf(trx))
      expect(pid).toBeGreaterThan(0)
      expect(pid).not.toBe(lostPid)
    } finally {
      await other.end()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
