import pg from 'pg'
import { shortId } from '../src/db/ids.js'

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
  const name = pg.escapeIdentifier(`${url.pathname.slice(1)}_${label}_${suffix}`)
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE ${name}`)
  url.pathname = `/${name.slice(1, -1)}`
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
