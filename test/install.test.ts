import { execFile } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

// What `npm ci` does with this repository: the lock it installs from, and the build step it runs
// (`prepare`, and `prestart` before `npm start`) in an install without dev dependencies.

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')

interface LockEntry {
  version?: string
  integrity?: string
  optional?: boolean
  os?: string[]
  cpu?: string[]
}

describe('package-lock.json', () => {
  it('names the platform of every optional package, so npm ci installs only the machine’s own', () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry & { optionalDependencies?: Record<string, string> }>
    }
    const incomplete = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && entry.optional && !entry.integrity)
      .map(([key]) => key)
    expect(incomplete, 'entries without integrity, os and cpu: run npm run lock:complete').toEqual([])
    // Every platform binary of biome and rollup is there (npm ci refuses a lock without them),
    // each with the os it is for.
    const platformEntries = Object.entries(lock.packages).filter(([key]) =>
      /node_modules\/@(biomejs\/cli|rollup\/rollup)-/.test(key),
    )
    expect(platformEntries.length).toBeGreaterThan(20)
    for (const [key, entry] of platformEntries) expect(entry.os, key).toBeDefined()
  })
})

describe('scripts/build-if-stale.mjs without dev dependencies', () => {
  // A copy of the repository's shape with no node_modules: what `npm ci --omit=dev` leaves for
  // TypeScript, tsx and Vite.
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  const HOUR_AGO = new Date(Date.now() - 3600_000)

  function install(options: { built: boolean }): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cartage-install-'))
    dirs.push(dir)
    for (const sub of ['scripts', 'src', 'web/src', 'web/dist', 'dist', 'node_modules'])
      mkdirSync(path.join(dir, sub), { recursive: true })
    // The start check and the freshness rule it shares with the process tests.
    for (const script of ['scripts/build-if-stale.mjs', 'scripts/dist-stamp.mjs'])
      copyFileSync(path.join(ROOT, script), path.join(dir, script))
    for (const file of [
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'src/main.ts',
      'web/src/main.tsx',
    ])
      writeFileSync(path.join(dir, file), '{}\n')
    if (options.built) {
      for (const file of [
        'dist/main.js',
        'dist/.build-stamp',
        'web/dist/index.html',
        'web/dist/.build-stamp',
      ]) {
        writeFileSync(path.join(dir, file), '\n')
        // Older than the sources, as a checkout or a copy without times leaves them.
        utimesSync(path.join(dir, file), HOUR_AGO, HOUR_AGO)
      }
    }
    return dir
  }
  const run = (dir: string, ...args: string[]) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['scripts/build-if-stale.mjs', ...args],
        { cwd: dir },
        (error, _out, stderr) =>
          resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
      )
    })

  it('runs the dist/ and web/dist/ built beforehand, saying so, when the sources look newer', async () => {
    const dir = install({ built: true })
    for (const args of [['--no-config-check'], []]) {
      const result = await run(dir, ...args)
      expect(result.status, result.stderr).toBe(0)
      expect(result.stderr).toContain(
        'TypeScript (a dev dependency) is not installed: running dist/ as built',
      )
      expect(result.stderr).toContain('serving web/dist/ as built')
    }
    expect(readFileSync(path.join(dir, 'dist/main.js'), 'utf8')).toBe('\n')
  })

  it('stops with what to do when nothing is built', async () => {
    const dir = install({ built: false })
    const result = await run(dir, '--no-config-check')
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('dist/ is not built')
    expect(result.stderr).toContain('npm run build && npm run build:console')
  })
})
