import { existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import config from '../vitest.config.js'
import SlowFirstSequencer, { SLOW_FILES_FIRST } from './sequencer.js'

describe('the test runner', () => {
  // Vitest 3's fork pool decides whether a worker process runs more than one file from the root's
  // `isolate`; a project's own setting only stops modules being reset inside a process that is
  // anyway started anew for each file. Without the root setting every file paid for importing the
  // app and opening a database again: the embedded suite took 1,582 s instead of 589 s.
  it('keeps a worker process, its modules and its database across files', () => {
    expect(config.test?.isolate).toBe(false)
    const projects = (config.test?.projects ?? []).flatMap((p) =>
      typeof p === 'object' && 'test' in p ? [p] : [],
    )
    expect(projects.map((p) => p.test?.name)).toEqual(['unit', 'server'])
    for (const project of projects) expect(project.test?.isolate, String(project.test?.name)).toBe(false)
  })
})

describe('the order of the files', () => {
  it('starts the known-slow files first, slowest first, and keeps vitest order for the rest', async () => {
    expect(config.test?.sequence?.sequencer).toBe(SlowFirstSequencer)
    const root = path.resolve(import.meta.dirname, '..')
    for (const file of SLOW_FILES_FIRST) expect(existsSync(path.join(root, file)), file).toBe(true)
    // Without a results cache (a clean clone) vitest runs larger files first.
    const sizes: Record<string, number> = { 'src/big.test.ts': 900, 'src/small.test.ts': 10 }
    const project = { name: 'server' }
    const spec = (file: string) =>
      ({ project, moduleId: path.join(root, file) }) as unknown as TestSpecification
    const ctx = {
      config: { root },
      cache: {
        getFileTestResults: () => undefined,
        getFileStats: (key: string) => ({ size: sizes[key.slice('server:'.length)] ?? 100 }),
      },
    }
    const sequencer = new SlowFirstSequencer(ctx as unknown as Vitest)
    const files = ['src/small.test.ts', SLOW_FILES_FIRST[1], 'src/big.test.ts', SLOW_FILES_FIRST[0]]
    const sorted = await sequencer.sort(files.map((file) => spec(file as string)))
    expect(sorted.map((s) => path.relative(root, s.moduleId))).toEqual([
      SLOW_FILES_FIRST[0],
      SLOW_FILES_FIRST[1],
      'src/big.test.ts',
      'src/small.test.ts',
    ])
  })
})
