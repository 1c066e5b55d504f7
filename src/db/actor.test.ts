import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { testDatabaseUrl } from '../../test/test-database.js'
import { releaseActorHolder, setActor, useActorSetting, withActorHolder } from './actor.js'

const url = testDatabaseUrl()

// The change listener LISTENs on each new connection of the pool (change-listener.ts) while the
// connection's first user may already be sending BEGIN. Behind the actor's setting the LISTEN used
// to reach the server after that BEGIN: inside the user's transaction, which then could not be
// prepared (a 500 on a write across clusters) and lost the LISTEN if it rolled back.
describe.skipIf(url === undefined)('the actor setting on a new connection', () => {
  it('sends a LISTEN made on connect before the first user’s transaction', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 })
    useActorSetting(pool)
    pool.on('connect', (client) => {
      void client.query('LISTEN "cartage_actor_test"')
    })
    const request = {}
    try {
      await withActorHolder(request, 'request-1', async () => {
        setActor('User', '00000000-0000-0000-0000-000000000001', 'request-1')
        const client = await pool.connect()
        try {
          await client.query('BEGIN')
          await client.query('SELECT 1')
          // PREPARE would refuse a transaction that ran LISTEN; its state says the same without one.
          const { rows } = await client.query<{ listening: string[] }>(
            'SELECT array(SELECT pg_listening_channels()) AS listening',
          )
          await client.query('ROLLBACK')
          // Listening already before the transaction began: a rollback does not undo it.
          const after = await client.query<{ listening: string[] }>(
            'SELECT array(SELECT pg_listening_channels()) AS listening',
          )
          expect(rows[0]?.listening).toEqual(['cartage_actor_test'])
          expect(after.rows[0]?.listening).toEqual(['cartage_actor_test'])
        } finally {
          client.release()
        }
      })
    } finally {
      releaseActorHolder(request)
      await pool.end()
    }
  })
})
