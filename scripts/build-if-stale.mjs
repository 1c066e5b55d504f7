// `npm start` runs this first: build only when a source is newer than the last build, so a
// restart of a built server skips tsc. Bad configuration is reported before any build.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..')
const stamp = path.join(root, 'dist', '.build-stamp')

function newestMtime(entry) {
  const stat = statSync(entry)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)))
  return newest
}

const sources = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => path.join(root, p))
const built =
  existsSync(stamp) && existsSync(path.join(root, 'dist', 'main.js')) ? statSync(stamp).mtimeMs : 0
if (built > 0 && Math.max(...sources.map(newestMtime)) <= built) process.exit(0)

// A stale build: check the configuration from the sources (tsx) before paying for tsc.
const checkConfig = `import('./src/config.ts').then((c) => {
  try { c.loadConfig() } catch (e) {
    if (!e.problems) throw e
    for (const p of e.problems) process.stderr.write('cartage: ' + p + '\\n')
    process.exit(2)
  }
})`
if (!process.argv.includes('--no-config-check')) {
  const check = spawnSync(process.execPath, ['--import', 'tsx', '-e', checkConfig], {
    cwd: root,
    encoding: 'utf8',
  })
  // Status 2 = bad configuration; anything else (tsx absent in an install without dev
  // dependencies) leaves the judgement to the server itself.
  if (check.status === 2) {
    process.stderr.write(check.stderr)
    process.exit(2)
  }
}

const started = Date.now()
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
)
if (tsc.status !== 0) process.exit(tsc.status ?? 1)
writeFileSync(stamp, `${new Date().toISOString()}\n`)
process.stdout.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
