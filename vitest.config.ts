import os from 'node:os'
import { defineConfig } from 'vitest/config'
import SlowFirstSequencer from './test/sequencer.js'

const onPostgres = process.env.CARTAGE_TEST_DATABASE === 'postgres'
const cores = os.availableParallelism()
const workers = onPostgres ? cores * 2 : cores + 1

/** Pure logic, no database: `*.unit.test.ts` (`npm run test:unit`, `vitest run --project unit`). */
const UNIT_TESTS = ['src/**/*.unit.test.ts', 'test/**/*.unit.test.ts']

// Two projects: `unit` (pure logic: no database, no app, seconds) and `server` (the real HTTP
// stack against a real database). `npm test` runs both; the gate runs `unit` once and `server`
// once per database.
export default defineConfig({
  test: {
    // A test file spends much of its time waiting: on its database's thread (embedded), on
    // PostgreSQL, or on a cache's expiry. More files than cores keep the cores busy.
    maxWorkers: workers,
    // As many kept as started: tinypool ends a worker above the minimum as soon as it idles, and
    // that ending can race the pool's own at the end of the run (an unhandled rejection).
    minWorkers: workers,
    // The pool reads isolation from here, not from a project: without it every file gets a new
    // process (and imports the app and opens its database again), whatever the projects say.
    isolate: false,
    reporters: ['default', './test/summary-reporter.ts'],
    // The gate runs on a clean clone, without the results cache that starts the slowest files first.
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          // No globalSetup: nothing migrates, and a unit test that asks for a database fails.
          setupFiles: ['test/setup.ts'],
          pool: 'forks',
          isolate: false,
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...UNIT_TESTS, 'test/browser/**', 'node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
          // Checks every response against the schema its route declares (test/response-check.ts).
          setupFiles: ['test/setup.ts'],
          // Files run in parallel without truncating anything: each test registers its own
          // organisations. A worker process runs its files one after another and keeps its modules
          // and its database between them (`isolate: false`): one embedded database per worker
          // (test/harness.ts), or the one PostgreSQL database every worker shares. Importing the
          // app and opening a PGlite once per worker instead of once per file took the suites from
          // ~12 and ~8.5 min to a few minutes on 2 cores.
          pool: 'forks',
          isolate: false,
          // A story test takes a few seconds alone; the gate runs three workers per core on shared
          // machines, where the same test has taken over 40 s. A timeout is not what these tests check.
          testTimeout: 60_000,
          // Creating or dropping a database waits for a checkpoint, which a loaded machine can make slow.
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
