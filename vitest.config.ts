import os from 'node:os'
import { defineConfig } from 'vitest/config'

// One database per test file (a copy of a migrated template, or the shared PostgreSQL with a
// fresh organisation per test), so files run in parallel without truncating anything.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    // Checks every response against the schema its route declares (test/response-check.ts).
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    // An embedded test file waits on its database's own thread about half the time: one more file
    // than cores keeps the cores busy (measured on 2 cores: 5.7 min instead of 7.2).
    ...(process.env.CARTAGE_TEST_DATABASE === 'postgres'
      ? {}
      : { maxWorkers: os.availableParallelism() + 1 }),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
})
