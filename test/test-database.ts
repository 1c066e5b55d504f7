/** `npm test` runs on the embedded database; `npm run test:pg` on DATABASE_URL. */
export function testDatabaseUrl(): string | undefined {
  if (process.env.CARTAGE_TEST_DATABASE !== 'postgres') return undefined
  const url = process.env.DATABASE_URL
  if (!url)
    throw new Error(
      'npm run test:pg needs DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/cartage_test',
    )
  return url
}

/**
 * With CARTAGE_TEST_CLUSTER (a PostgreSQL URL, another server or another database), the shared
 * test database gains a second cluster, `east`, and every organisation the tests register is placed
 * there: any feature test then runs for an organisation outside the main cluster.
 */
export function testClusters():
  | { clusters: { name: string; url: string }[]; placement: { kind: 'named'; cluster: string } }
  | undefined {
  const url = process.env.CARTAGE_TEST_CLUSTER
  if (!url || testDatabaseUrl() === undefined) return undefined
  return { clusters: [{ name: 'east', url }], placement: { kind: 'named', cluster: 'east' } }
}
