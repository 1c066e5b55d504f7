import { defineConfig } from 'vitest/config'

// The console's own tests: unit tests of the logic in the client (web/src/**/*.test.ts, plain
// Node: no DOM needed), then the end-to-end tests in Debian's Chromium against the built server on
// the demo organisation (web/e2e/**/*.test.ts). `npm run test:console`.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['web/src/**/*.test.ts', 'web/e2e/**/*.test.ts'],
    pool: 'forks',
    // The demo organisation is seeded once per run and copied for each file (web/e2e/global-setup.ts).
    globalSetup: ['web/e2e/global-setup.ts'],
    // One server and one browser: the end-to-end files run one after another.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 420_000,
  },
})
