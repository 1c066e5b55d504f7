import { writeFileSync } from 'node:fs'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../test/harness.js'
import { testDatabaseUrl } from '../../test/test-database.js'
import { loadConfig } from '../config.js'
import { MemoryMailer } from '../mail/mailer.js'
import { signingKeyFile } from '../security/signing.js'
import { openCartage } from './cartage.js'

const configFor = (dataDir: string) => ({ ...loadConfig({}), databaseUrl: testDatabaseUrl(), dataDir })

describe('openCartage', () => {
  it('builds the APIs asked for, and leaves a database it was given open when it closes', async () => {
    const { database, dataDir, close } = await openTestDatabase()
    try {
      const cartage = await openCartage(configFor(dataDir), {
        apis: ['global'],
        database,
        migrate: false,
        mailer: new MemoryMailer(),
      })
      expect('core' in cartage).toBe(false)
      expect((await cartage.global.inject({ url: '/health/live' })).statusCode).toBe(200)
      await cartage.close()
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db)
      expect(rows).toEqual([{ one: 1 }])
    } finally {
      await close()
    }
  })

  it.runIf(testDatabaseUrl())('closes the database it opened when the start fails', async () => {
    const { database, dataDir, close } = await openTestDatabase()
    // A key file whose private key is not a key: the database is asked about its kid, then the
    // services fail to start.
    writeFileSync(signingKeyFile(dataDir), JSON.stringify({ kid: 'not-a-key', privateKey: 'garbage' }))
    const applicationName = `cartage-open-${process.pid}`
    try {
      await expect(
        openCartage(configFor(dataDir), { applicationName, migrate: false, poolSize: 2 }),
      ).rejects.toThrow()
      // A backend may outlive its client's goodbye by a moment: ask a few times.
      let left = -1
      for (let attempt = 0; attempt < 40 && left !== 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50))
        const { rows } = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE application_name LIKE ${`${applicationName}%`}`.execute(database.db)
        left = rows[0]?.n ?? -1
      }
      expect(left).toBe(0)
    } finally {
      await close()
    }
  })
})
