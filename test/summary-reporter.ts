import path from 'node:path'
import type { SerializedError } from 'vitest'
import type { Reporter, TestModule } from 'vitest/node'

/**
 * Prints the plain closing line CI reads: `N passed, N failed[, N skipped]`, followed by what
 * else fails a run although no test did: files whose hooks or import failed, and unhandled errors
 * (vitest exits 1 for those too, so the line must never read as a clean run when it is not).
 * Before it, the organisations the files registered (test/registration-count.ts) and the files
 * that registered most: registration is the dearest step of the server suites.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    let passed = 0
    let failed = 0
    let skipped = 0
    let brokenFiles = 0
    const registrations: { file: string; count: number }[] = []
    for (const module of testModules) {
      const count = module.meta().registrations
      if (count)
        registrations.push({ file: path.relative(module.project.config.root, module.moduleId), count })
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
    process.stdout.write(`${registrationLines(registrations)}\n${parts.join(', ')}\n`)
  }
}

const TOP_FILES = 15

function registrationLines(registrations: { file: string; count: number }[]): string {
  if (registrations.length === 0) return ''
  const total = registrations.reduce((sum, entry) => sum + entry.count, 0)
  const top = registrations
    .sort((a, b) => b.count - a.count || a.file.localeCompare(b.file))
    .slice(0, TOP_FILES)
    .map((entry) => `  ${String(entry.count).padStart(4)}  ${entry.file}`)
  return `\n${total} organisations registered by ${registrations.length} files; most:\n${top.join('\n')}\n`
}
