import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { PROCESS_TEST_TIMEOUT_MS } from '../../test/server-process.js'
import { testDatabaseUrl } from '../../test/test-database.js'
import { MIGRATIONS } from '../apps/modules.js'
import { DEFAULT_EMBEDDED_SHARED_BUFFERS_MB, startEmbeddedServer } from './embedded.js'

const root = mkdtempSync(path.join(os.tmpdir(), 'cartage-embedded-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** The global migrations a new data directory holds right after it is opened, nothing else run. */
async function appliedOnOpen(dataDir: string, migrate: boolean): Promise<number | null> {
  const server = await startEmbeddedServer(dataDir, migrate ? { migrateNewDataDir: MIGRATIONS } : {})
  const client = new pg.Client({ host: server.socketDir, port: 5432, user: 'postgres', database: 'postgres' })
  try {
    await client.connect()
    const table = await client.query<{ t: string | null }>(
      `SELECT to_regclass('global.schema_migrations') AS t`,
    )
    if (!table.rows[0]?.t) return null
    return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM global.schema_migrations'))
      .rows[0]?.n as number
  } finally {
    await client.end()
    await server.stop()
  }
}

describe.skipIf(testDatabaseUrl() !== undefined)('a new embedded data directory', () => {
  it(
    'is created already migrated when the server asks (the migrating heap leaves with that process)',
    async () => {
      expect(await appliedOnOpen(path.join(root, 'served'), true)).toBe(MIGRATIONS.global.length)
      expect(await appliedOnOpen(path.join(root, 'plain'), false)).toBeNull()
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})

describe.skipIf(testDatabaseUrl() !== undefined)('the embedded database', () => {
  it(
    `starts with ${DEFAULT_EMBEDDED_SHARED_BUFFERS_MB} MB of shared buffers, or what EMBEDDED_SHARED_BUFFERS_MB asks`,
    async () => {
      const sharedBuffers = async (sharedBuffersMb?: number) => {
        const server = await startEmbeddedServer('memory://', sharedBuffersMb ? { sharedBuffersMb } : {})
        const client = new pg.Client({
          host: server.socketDir,
          port: 5432,
          user: 'postgres',
          database: 'postgres',
        })
        try {
          await client.connect()
          return (await client.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]
            ?.shared_buffers
        } finally {
          await client.end()
          await server.stop()
        }
      }
      expect(await sharedBuffers()).toBe(`${DEFAULT_EMBEDDED_SHARED_BUFFERS_MB}MB`)
      expect(await sharedBuffers(24)).toBe('24MB')
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})
