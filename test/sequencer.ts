import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that took longest in the gate, slowest first (its embedded run of 2026-11-28: fuzz 97 s,
 * process 53 s, SQL console limits 49 s, seed 48 s (now two files), lock 46 s, export 44 s,
 * walk-through 42 s; then the process tests earlier gates named among their slowest). A worker takes
 * the next file as it finishes one, so a run ends when the slowest file started last does. On a clean
 * clone vitest has no results cache and starts the largest files first: these came 43rd to 133rd of
 * the 167 server files by size.
 */
export const SLOW_FILES_FIRST: readonly string[] = [
  'test/security/fuzz.test.ts',
  'test/process.test.ts',
  'src/modules/insights/sql-console/sql-console.limits.test.ts',
  'src/cli/seed-command.test.ts',
  'src/cli/seed-demo.test.ts',
  'test/process-lock.test.ts',
  'src/http/csv-export.test.ts',
  'test/readme-walkthrough.test.ts',
  'test/api-guide.test.ts',
  'src/modules/integrations/webhooks/webhook-crash.test.ts',
  'test/sql-console-process.test.ts',
  'test/keys-rotate.test.ts',
]

/** Starts the files above first, in that order, then the rest in vitest's own order. */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byVitest = await super.sort(files)
    const place = (spec: TestSpecification) => {
      const file = path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/')
      const index = SLOW_FILES_FIRST.indexOf(file)
      return index === -1 ? SLOW_FILES_FIRST.length : index
    }
    // Array sort is stable: the files not listed keep vitest's order among themselves.
    return [...byVitest].sort((a, b) => place(a) - place(b))
  }
}
