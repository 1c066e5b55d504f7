import pg from 'pg'
import { shortId } from '../src/db/ids.js'

/** The names of scratch databases beside `databaseUrl`'s share its name and an underscore. */
const scratchPrefix = (databaseUrl: string) => `${new URL(databaseUrl).pathname.slice(1)}_`

async function admin(databaseUrl: string, statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return await client.query<Record<string, unknown>>(statement, values)
  } finally {
    await client.end()
  }
}

/**
 * A new, empty PostgreSQL database beside `databaseUrl`'s (same server and credentials), for a
 * test or bench that must not share its database; `drop` removes it, closing what is still open.
 */
export async function createScratchDatabase(
  databaseUrl: string,
  label: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(databaseUrl)
  const suffix = shortId(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')
  const name = pg.escapeIdentifier(`${scratchPrefix(databaseUrl)}${label}_${suffix}`)
  await admin(databaseUrl, `CREATE DATABASE ${name}`)
  url.pathname = `/${name.slice(1, -1)}`
  return {
    url: url.toString(),
    drop: async () => {
      await admin(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

/**
 * Drops every scratch database beside `databaseUrl`'s: the test suite's global teardown, once at the
 * end of the run. A test leaves its scratch database to this rather than dropping it itself: every
 * DROP DATABASE waits for an immediate checkpoint of the whole server, which after a suite's worth
 * of organisation schemas has taken over two minutes on a busy machine.
 */
export async function dropScratchDatabases(databaseUrl: string): Promise<void> {
  const { rows } = await admin(
    databaseUrl,
    `SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND NOT datistemplate`,
    [scratchPrefix(databaseUrl)],
  )
  const scratchName = /^[a-z0-9_]+_[a-z0-9]{6,}$/
  for (const row of rows.filter((r) => scratchName.test(String(r.datname))))
    await admin(
      databaseUrl,
      `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(String(row.datname))} WITH (FORCE)`,
    )
}
