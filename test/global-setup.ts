import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { MIGRATIONS } from '../src/apps/modules.js'
import { openDatabase } from '../src/db/database.js'
import { migrate } from '../src/db/migrator.js'
import { dropScratchDatabases } from './scratch-database.js'
import { testClusters, testDatabaseUrl } from './test-database.js'

declare module 'vitest' {
  export interface ProvidedContext {
    templateDataDir: string
  }
}

/** Migrates once: a template data directory for the embedded runs, or the PostgreSQL database itself. */
export default async function setup(project: TestProject) {
  const databaseUrl = testDatabaseUrl()
  const templateDataDir = databaseUrl ? '' : mkdtempSync(path.join(os.tmpdir(), 'cartage-template-'))
  const database = await openDatabase({
    migrations: MIGRATIONS,
    databaseUrl,
    dataDir: templateDataDir,
    poolSize: 2,
    ...testClusters(),
  })
  try {
    await migrate(database)
  } finally {
    await database.close()
  }
  project.provide('templateDataDir', templateDataDir)
  return async () => {
    if (databaseUrl) await dropScratchDatabases(databaseUrl)
    if (!templateDataDir) return
    rmSync(templateDataDir, { recursive: true, force: true })
    // The workers' databases (test/harness.ts), ended with their processes.
    rmSync(`${templateDataDir}-workers`, { recursive: true, force: true })
  }
}
