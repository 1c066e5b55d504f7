// `npm ci` (prepare) and `npm start` (prestart) run this: build only when a source is newer than the
// last build, so a restart of a built server skips tsc. Bad configuration is reported before any build.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { buildSources, buildStamp, distIsFresh, newestMtime } from './dist-stamp.mjs'

const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..')
const stamp = buildStamp(root)
const sources = buildSources(root)
if (distIsFresh(root)) buildConsoleIfStale()

// A stale build: check the configuration from the sources (tsx) before paying for tsc.
const checkConfig = `import('./src/config.ts').then((c) => {
  try { c.loadConfig() } catch (e) {
    if (!e.problems) throw e
    for (const p of e.problems) process.stderr.write('cartage: ' + p + '\\n')
    process.exit(2)
  }
})`
if (!process.argv.includes('--no-config-check') && existsSync(path.join(root, 'node_modules', 'tsx'))) {
  const check = spawnSync(process.execPath, ['--import', 'tsx', '-e', checkConfig], {
    cwd: root,
    encoding: 'utf8',
  })
  // Status 2 = bad configuration; anything else leaves the judgement to the server itself, as
  // does an install without dev dependencies (no tsx).
  if (check.status === 2) {
    process.stderr.write(check.stderr)
    process.exit(2)
  }
}

// An install without dev dependencies (`npm ci --omit=dev`) has no compiler: it runs the dist/ and
// web/dist/ built beforehand, whose stamps a copy or a checkout may leave older than the sources.
const tscBin = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc')
if (!existsSync(tscBin)) {
  if (!existsSync(path.join(root, 'dist', 'main.js'))) {
    process.stderr.write(
      'cartage: dist/ is not built, and TypeScript is a dev dependency, not installed here: run ' +
        '`npm run build && npm run build:console` in an install with dev dependencies and copy ' +
        'dist/ and web/dist/ here (docs/deployment.md)\n',
    )
    process.exit(1)
  }
  process.stderr.write(
    'cartage: the sources are newer than dist/ but TypeScript (a dev dependency) is not installed: running dist/ as built\n',
  )
  buildConsoleIfStale()
}

const started = Date.now()
const tsc = spawnSync(process.execPath, [tscBin, '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
})
if (tsc.status !== 0) process.exit(tsc.status ?? 1)
writeFileSync(stamp, `${new Date().toISOString()}\n`)
process.stdout.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
buildConsoleIfStale()

/**
 * The web console (web/ -> web/dist), built when its sources, or the server sources its API client
 * is generated from, are newer than its last build. Its build tools are dev dependencies: without
 * them (an install that left them out) the APIs are still served, and `/` says the console is not built.
 */
function buildConsoleIfStale() {
  const consoleStamp = path.join(root, 'web', 'dist', '.build-stamp')
  const consoleSources = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/scripts']
    .map((p) => path.join(root, p))
    .filter((p) => existsSync(p))
  const consoleBuilt = existsSync(consoleStamp) ? statSync(consoleStamp).mtimeMs : 0
  const generated = path.join(root, 'web', 'src', 'api', 'generated')
  const newest = Math.max(
    ...[...consoleSources, ...sources].map((p) =>
      p === path.join(root, 'web/src') ? newestOutside(p, generated) : newestMtime(p),
    ),
  )
  if (consoleBuilt > 0 && newest <= consoleBuilt) process.exit(0)
  if (
    !existsSync(path.join(root, 'node_modules', 'vite')) ||
    !existsSync(path.join(root, 'node_modules', 'tsx'))
  ) {
    process.stderr.write(
      existsSync(path.join(root, 'web', 'dist', 'index.html'))
        ? 'cartage: the console sources are newer than web/dist/ but its build tools (dev dependencies) are not installed: serving web/dist/ as built\n'
        : 'cartage: the web console is not built (its build tools are dev dependencies)\n',
    )
    process.exit(0)
  }
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'web', 'scripts', 'build.ts')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
  process.exit(result.status ?? 1)
}

/** newestMtime of a directory, leaving out one folder inside it (the generated client). */
function newestOutside(entry, skip) {
  if (entry === skip) return 0
  const stat = statSync(entry)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const name of readdirSync(entry))
    newest = Math.max(newest, newestOutside(path.join(entry, name), skip))
  return newest
}
