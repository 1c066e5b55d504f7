import { describe, expect, it } from 'vitest'
import config from '../vitest.config.js'

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
