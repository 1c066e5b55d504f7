// Whether dist/ is as new as the sources it is built from: `npm ci` (prepare) and `npm start`
// (prestart) build only when it is not (build-if-stale.mjs), and the process tests run the built
// CLI when it is (test/server-process.ts).
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** The newest modification time under `entry`, leaving out files for which `skip` is true. */
export function newestMtime(entry, skip = () => false) {
  const stat = statSync(entry)
  if (!stat.isDirectory()) return skip(entry) ? 0 : stat.mtimeMs
  let newest = stat.mtimeMs
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name), skip))
  return newest
}

/** What tsconfig.build.json leaves out of dist/: a change to them does not make the build stale. */
const notBuilt = (file) => /\.(test|fixtures)\.ts$/.test(file)

export const buildSources = (root) =>
  ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => path.join(root, p))

/** dist/.build-stamp, written by `npm run build` and build-if-stale.mjs after tsc. */
export const buildStamp = (root) => path.join(root, 'dist', '.build-stamp')

/** True when dist/main.js exists and no source it is built from changed since the last build. */
export function distIsFresh(root) {
  const stamp = buildStamp(root)
  if (!existsSync(stamp) || !existsSync(path.join(root, 'dist', 'main.js'))) return false
  const built = statSync(stamp).mtimeMs
  return Math.max(...buildSources(root).map((p) => newestMtime(p, notBuilt))) <= built
}
