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
