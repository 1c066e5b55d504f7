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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
})
