import type { SerializedError } from 'vitest'
import type { Reporter, TestModule } from 'vitest/node'

/**
 * Prints the plain closing line CI reads: `N passed, N failed[, N skipped]`, followed by what
 * else fails a run although no test did: files whose hooks or import failed, and unhandled errors
 * (vitest exits 1 for those too, so the line must never read as a clean run when it is not).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    let passed = 0
    let failed = 0
    let skipped = 0
    let brokenFiles = 0
    for (const module of testModules) {
      if (module.errors().length > 0) brokenFiles++
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
    }
    const parts = [`${passed} passed`, `${failed} failed`]
    if (skipped) parts.push(`${skipped} skipped`)
    if (brokenFiles) parts.push(`${brokenFiles} file(s) with errors outside tests`)
    if (unhandledErrors.length) parts.push(`${unhandledErrors.length} unhandled error(s), listed above`)
    process.stdout.write(`\n${parts.join(', ')}\n`)
  }
}
