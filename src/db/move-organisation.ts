import { spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { CLUSTER_LOCAL_TABLES } from './clusters.js'
import type { Database } from './database.js'
import { assertSchemaName } from './migrator.js'

export interface MoveReport {
  schema: string
  from: string
  to: string
  /** Rows per table, equal on both clusters (count and digest) before the switch. */
  tables: Record<string, number>
  /** How long writes waited (the freeze), in milliseconds. */
  frozenMs: number
}

/** Which connection string a cluster's pool was opened with. */
function urlOf(database: Database, cluster: string): string {
  const pool = database.clusters?.pools.get(cluster)
  const url = pool?.options.connectionString
  if (!url) throw new Error(`cluster ${cluster} is not configured (DATABASE_CLUSTERS)`)
  return url
}

/** Runs `pg_dump` of one schema on `from` into `psql` on `to`, in one transaction there. */
function copySchema(schema: string, fromUrl: string, toUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const dump = spawn('pg_dump', ['--schema', schema, '--no-owner', '--no-privileges', '--dbname', fromUrl])
    const restore = spawn('psql', [
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '--single-transaction',
      '--dbname',
      toUrl,
    ])
    dump.stdout.pipe(restore.stdin)
    let errors = ''
    dump.stderr.on('data', (chunk) => {
      errors += chunk
    })
    restore.stderr.on('data', (chunk) => {
      errors += chunk
    })
    restore.stdout.resume()
    let dumped: number | null = null
    dump.on('close', (code) => {
      dumped = code
    })
    restore.on('close', (code) => {
      if (code === 0 && dumped === 0) resolve()
      else reject(new Error(`copying ${schema} failed: ${errors.trim() || `exit ${dumped}/${code}`}`))
    })
    dump.on('error', reject)
    restore.on('error', reject)
  })
}

/** Per table: rows and a digest of every row's text, in a fixed order. */
async function fingerprint(client: Pick<pg.Client, 'query'>, schema: string) {
  const tables = await client.query<{ name: string }>(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename',
    [schema],
  )
  const result = new Map<string, { rows: number; digest: string }>()
  for (const { name } of tables.rows) {
    const { rows } = await client.query<{ n: number; digest: string | null }>(
      `SELECT count(*)::int AS n, md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS digest FROM "${schema}"."${name}" t`,
    )
    result.set(name, { rows: rows[0]?.n ?? 0, digest: rows[0]?.digest ?? '' })
  }
  return result
}

/**
 * Moves one organisation's schema to another cluster (`cartage org:move`). Writes are frozen on the
 * source (its tables locked EXCLUSIVE: reads go on) while `pg_dump` copies the schema into the
 * target in one transaction; every table is then compared row by row (count and digest of every
 * row). Only if all match is the organisation's record switched on the main cluster, which tells
 * every process (the credential-change notification) to send its statements to the target; then
 * the source schema is dropped in the transaction holding the freeze. A write that waited on the
 * freeze therefore fails (it was never acknowledged) instead of landing in the old copy; any
 * failure before the switch drops the copy and leaves the organisation where it was.
 */
/** Attempts at the freeze before the move gives up (each one a deadlock PostgreSQL broke). */
const FREEZE_ATTEMPTS = 20

/**
 * Takes every table of the schema in EXCLUSIVE mode (reads go on, writes wait). The tables are
 * locked one after another, and a write that already holds one of them and then reaches for
 * another makes a deadlock, which PostgreSQL breaks by failing this statement: the freeze then
 * steps back to its savepoint (the writes finish) and tries again a little later.
 */
async function freeze(source: pg.Client, tables: readonly string[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await source.query('SAVEPOINT move_freeze')
    try {
      await source.query(`LOCK TABLE ${tables.join(', ')} IN EXCLUSIVE MODE`)
      return
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= FREEZE_ATTEMPTS) throw error
      await source.query('ROLLBACK TO SAVEPOINT move_freeze')
      await sleep(20 * attempt)
    }
  }
}

export async function moveOrganisation(
  database: Database,
  organisation: string,
  to: string,
): Promise<MoveReport> {
  const clusters = database.clusters
  if (!clusters) throw new Error('moving an organisation needs DATABASE_CLUSTERS')
  if (!clusters.pools.has(to)) throw new Error(`cluster ${to} is not configured (DATABASE_CLUSTERS)`)
  const found = await clusters
    .db('main')
    .selectFrom('global.organizations')
    .select(['id', 'schema_name', 'cluster'])
    .where((eb) => eb.or([eb('slug', '=', organisation), eb('schema_name', '=', organisation)]))
    .executeTakeFirst()
  if (!found) throw new Error(`no organisation ${organisation} (give its slug or schema name)`)
  const schema = assertSchemaName(found.schema_name)
  const from = found.cluster
  if (from === to) throw new Error(`${organisation} is on cluster ${to} already`)
  // Connections of the move's own, so the freeze never waits for a pool that the frozen writes hold.
  const connected = async (url: string) => {
    const client = new pg.Client({ connectionString: url, application_name: 'cartage-move' })
    await client.connect()
    return client
  }
  const source = await connected(urlOf(database, from))
  const target = await connected(urlOf(database, to))
  const main = await connected(urlOf(database, 'main'))
  let switched = false
  try {
    await source.query('BEGIN')
    // Row texts are compared across servers: the same time zone on both sides.
    await source.query("SET LOCAL TimeZone TO 'UTC'")
    const started = performance.now()
    const tables = await source.query<{ name: string }>(
      'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1',
      [schema],
    )
    if (tables.rows.length > 0)
      await freeze(
        source,
        tables.rows.map((t) => `"${schema}"."${t.name}"`),
      )
    const migrations = await source.query<{ name: string }>(
      'SELECT name FROM global.tenant_migrations WHERE schema_name = $1',
      [schema],
    )
    try {
      await copySchema(schema, urlOf(database, from), urlOf(database, to))
      await target.query(
        'INSERT INTO global.tenant_migrations (schema_name, name) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
        [schema, migrations.rows.map((m) => m.name)],
      )
      // The global rows each cluster keeps for its own organisations (its tracking links) go with it.
      const local: { table: string; rows: number }[] = []
      for (const table of CLUSTER_LOCAL_TABLES) {
        const { rows } = await source.query<{ rows: unknown }>(
          `SELECT coalesce(jsonb_agg(to_jsonb(t)), '[]') AS rows FROM global.${table} t WHERE schema_name = $1`,
          [schema],
        )
        const copied = await target.query(
          `INSERT INTO global.${table} SELECT * FROM jsonb_populate_recordset(NULL::global.${table}, $1)`,
          [JSON.stringify(rows[0]?.rows ?? [])],
        )
        local.push({ table, rows: copied.rowCount ?? 0 })
      }
      const before = await fingerprint(source, schema)
      await target.query('BEGIN')
      await target.query("SET LOCAL TimeZone TO 'UTC'")
      const after = await fingerprint(target, schema)
      await target.query('COMMIT')
      for (const [name, expected] of before) {
        const copied = after.get(name)
        if (copied?.rows !== expected.rows || copied.digest !== expected.digest)
          throw new Error(
            `table ${name} differs after the copy (${expected.rows} rows, ${copied?.rows ?? 0} copied)`,
          )
      }
      if (after.size !== before.size) throw new Error('the copy has other tables than the source')
      // The switch: every process hears it (organizations_notify_change) and forgets where the schema was.
      await main.query(
        'UPDATE global.organizations SET cluster = $1, schema_name = schema_name WHERE id = $2',
        [to, found.id],
      )
      switched = true
      clusters.place(schema, to)
      // Give the other processes a moment to hear it before the old copy goes.
      await sleep(200)
      await source.query(`DROP SCHEMA "${schema}" CASCADE`)
      await source.query('DELETE FROM global.tenant_migrations WHERE schema_name = $1', [schema])
      for (const { table } of local)
        await source.query(`DELETE FROM global.${table} WHERE schema_name = $1`, [schema])
      await source.query('COMMIT')
      return {
        schema,
        from,
        to,
        tables: Object.fromEntries([...before].map(([name, t]) => [name, t.rows])),
        frozenMs: Math.round(performance.now() - started),
      }
    } catch (error) {
      await source.query('ROLLBACK').catch(() => {})
      if (!switched) {
        await target.query('ROLLBACK').catch(() => {})
        await target.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {})
        await target
          .query('DELETE FROM global.tenant_migrations WHERE schema_name = $1', [schema])
          .catch(() => {})
        for (const table of CLUSTER_LOCAL_TABLES)
          await target.query(`DELETE FROM global.${table} WHERE schema_name = $1`, [schema]).catch(() => {})
      }
      throw error
    }
  } finally {
    await Promise.all([source.end(), target.end(), main.end()].map((p) => p.catch(() => {})))
  }
}
