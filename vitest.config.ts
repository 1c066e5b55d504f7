import os from 'node:os'
import { defineConfig } from 'vitest/config'

const onPostgres = process.env.CARTAGE_TEST_DATABASE === 'postgres'
const cores = os.availableParallelism()
const workers = onPostgres ? cores * 2 : cores + 1

// Files run in parallel without truncating anything: each test registers its own organisations.
// A worker process runs its files one after another and keeps its modules and its database
// between them (`isolate: false`): one embedded database per worker (test/harness.ts), or the one
// PostgreSQL database every worker shares. Importing the app and opening a PGlite once per worker
// instead of once per file took the suites from ~12 and ~8.5 min to a few minutes on 2 cores.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    // Checks every response against the schema its route declares (test/response-check.ts).
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    isolate: false,
    // A test file spends much of its time waiting: on its database's thread (embedded), on
    // PostgreSQL, or on a cache's expiry. More files than cores keep the cores busy.
    maxWorkers: workers,
    // As many kept as started: tinypool ends a worker above the minimum as soon as it idles, and
    // that ending can race the pool's own at the end of the run (an unhandled rejection).
    minWorkers: workers,
    testTimeout: 30_000,
    // Creating or dropping a database waits for a checkpoint, which a loaded machine can make slow.
    hookTimeout: 120_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
})
