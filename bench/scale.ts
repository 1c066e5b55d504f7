/**
 * `npm run bench -- --scale` (PostgreSQL only, several minutes): the customer list's p50 latency
 * in a business with 1,000,000 customers against one with 1,000 (goal <= 1.5x), for `$filter` on
 * name, `$search`, and `$orderby` on an indexed field. Customers are seeded in SQL with
 * generate_series, never row by row. Requests alternate between the two businesses, one at a time.
 */
import pg from 'pg'
import type { DatabasePool } from '../src/db/lane-pool.js'
import { type ServerProcess, startServer } from './children.js'
import { median } from './load.js'
import { resolveSeed } from './resolve-seed.js'
import type { Seed } from './scenario-types.js'
import { seed } from './seed.js'

const SMALL = 1_000
const LARGE = 1_000_000
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 30)
/** Goal from the issue: the large business's p50 at most 1.5x the small one's. */
export const SCALE_GOAL = 1.5

/**
 * `matches` says how many customers the query selects in each business. The goal compares the same
 * work at two sizes; a search whose matches grow with the business (the last one) is reported
 * beside it: its total must count every match, so it grows with them.
 */
const queries: { name: string; query: string; matches?: string }[] = [
  { name: '$filter name eq', query: "$filter=name eq 'Bulk Customer 500'" },
  { name: '$search, 1 match', query: '$search=Bench Customer 17' },
  { name: '$orderby name', query: '$orderby=name&PageSize=20' },
  { name: 'default page', query: 'PageSize=20' },
  { name: '$search, 1 vs 1,111', query: '$search=Bulk Customer 500', matches: '1 vs 1,111 matches' },
]

/** The trigram indexes of $search (migration add-customer-search-indexes). */
const SEARCH_INDEXES = [
  'customers_name_trgm_idx',
  'customers_email_trgm_idx',
  'customers_phone_trgm_idx',
  'customer_contacts_name_trgm_idx',
]

/**
 * Adds customers to the seeded business until it has `total`, in one statement. The live-customer
 * count is set once afterwards rather than by its trigger a million times.
 */
export async function grow(pool: DatabasePool, schema: string, businessId: string, total: number) {
  // As a bulk import should: the search indexes collect the rows in their pending lists and merge
  // them once, then go back to taking each new customer straight into the index.
  const setFastUpdate = (on: boolean) =>
    Promise.all(
      SEARCH_INDEXES.map((index) => pool.query(`alter index "${schema}".${index} set (fastupdate = ${on})`)),
    )
  await setFastUpdate(true)
  await pool.query(`alter table "${schema}".customers disable trigger customers_count_live`)
  await pool.query(
    `insert into "${schema}".customers (id, business_id, code, name, email, metadata, date_created, date_modified)
     select gen_random_uuid(), $1, 'BULK-' || g, 'Bulk Customer ' || g, 'bulk-' || g || '@example.com', '{}',
            now() - make_interval(secs => g), now()
       from generate_series(1, $2::int) g`,
    [businessId, total - 50],
  )
  await pool.query(`alter table "${schema}".customers enable trigger customers_count_live`)
  await pool.query(
    `update "${schema}".customer_counts set live = (select count(*) from "${schema}".customers
       where business_id = $1 and deleted_at is null) where business_id = $1`,
    [businessId],
  )
  for (const index of SEARCH_INDEXES)
    await pool.query(`select gin_clean_pending_list('"${schema}".${index}'::regclass)`)
  await setFastUpdate(false)
  await pool.query(`analyze "${schema}".customers`)
}

async function timeOne(url: string, headers: Record<string, string>): Promise<number> {
  const start = process.hrtime.bigint()
  const response = await fetch(url, { headers })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`scale: ${url} answered ${response.status}`)
  return Number(process.hrtime.bigint() - start) / 1e6
}

/** Runs the scale scenarios; returns the RESULTS.md section (also printed). */
export async function benchScale(env: NodeJS.ProcessEnv): Promise<string> {
  const databaseUrl = env.DATABASE_URL
  if (!databaseUrl) return '## Scale\n\nskipped: DATABASE_URL is not set (PostgreSQL only)\n'
  process.stdout.write('\nscale: seeding 1,000 and 1,000,000 customers (generate_series)\n')
  const running: ServerProcess[] = []
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  try {
    const cartage = await startServer('cartage-server.ts', env)
    running.push(cartage)
    const core = `http://127.0.0.1:${cartage.ports.core}`
    const global = `http://127.0.0.1:${cartage.ports.global}`
    const small = await seed(global, core)
    const large = await seed(global, core)
    for (const [s, total] of [
      [small, SMALL],
      [large, LARGE],
    ] as [Seed, number][]) {
      const { schemaName } = await resolveSeed(pool, s)
      await grow(pool, schemaName, s.businessId, total)
    }
    const headers = (s: Seed) => ({ authorization: `Bearer ${s.accessToken}`, 'x-business-id': s.businessId })
    let table = `query${' '.repeat(20)}p50 ms ${SMALL}   p50 ms ${LARGE}   ratio   goal <= ${SCALE_GOAL}x\n`
    for (const { name, query, matches } of queries) {
      // The business is chosen by X-Business-Id; the URL is the same for both.
      const url = `${core}/api/v1/Customers?${encodeURI(query)}`
      const times = { small: [] as number[], large: [] as number[] }
      for (let i = 0; i < SAMPLES + 3; i++) {
        const a = await timeOne(url, headers(small))
        const b = await timeOne(url, headers(large))
        // The first three of each are warm-up.
        if (i >= 3) {
          times.small.push(a)
          times.large.push(b)
        }
      }
      const [ps, pl] = [median(times.small), median(times.large)]
      const ratio = pl / ps
      table +=
        `${name.padEnd(25)}${ps.toFixed(2).padStart(11)}${pl.toFixed(2).padStart(18)}` +
        `${ratio.toFixed(2).padStart(8)}   ${matches ? `not held to it: ${matches}` : ratio <= SCALE_GOAL ? 'met' : 'NOT met'}\n`
    }
    process.stdout.write(`\n== scale (postgres) ==\n${table}`)
    return `## Scale (PostgreSQL): customer list p50, ${LARGE.toLocaleString('en')} vs ${SMALL.toLocaleString('en')} customers in one business, ${SAMPLES} alternating requests each\n\n\`\`\`\n${table}\`\`\`\n`
  } finally {
    await pool.end()
    await Promise.all(running.map((server) => server.stop()))
  }
}
