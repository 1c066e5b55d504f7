/**
 * Creates an embedded data directory (initdb) in a process of its own and, when asked, applies
 * the migrations there too. initdb's WASM heap and compiled code (~400 MB), and the heap growth
 * of migrating a new directory (~80 MB), would otherwise stay with the server for its whole
 * life: a WASM heap never shrinks. A process that exits hands all of it back.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { type MigrationSet, migrate } from './migrator.js'
import type { Tables } from './tables.js'

const [dataDir, migrationsFile] = process.argv.slice(2)
if (!dataDir) throw new Error('usage: pglite-init <data dir> [<migrations.json>]')
const db = await PGlite.create(dataDir, migrationsFile ? { extensions: { pg_trgm } } : {})
if (migrationsFile) {
  const migrations = JSON.parse(readFileSync(migrationsFile, 'utf8')) as MigrationSet
  // The migrator speaks the wire protocol, as the server will: a private socket for this process only.
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-init-'))
  const server = new PGLiteSocketServer({ db, path: path.join(socketDir, '.s.PGSQL.5432') })
  await server.start()
  const pool = new pg.Pool({ host: socketDir, port: 5432, user: 'postgres', database: 'postgres', max: 1 })
  const kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) })
  try {
    await migrate({ db: kysely, migrations })
  } finally {
    await kysely.destroy()
    await server.stop()
    rmSync(socketDir, { recursive: true, force: true })
  }
}
await db.close()
