#!/usr/bin/env node
// Packages with per-platform binaries (biome, esbuild, rollup, argon2...) list one optional
// dependency per platform. package-lock.json must hold an entry for each, or `npm ci` refuses the
// lock as out of sync; and each entry must say its os, cpu and libc, or `npm ci` cannot tell it is
// another platform's and installs it (every platform's biome binary is some 90 MB). npm writes
// such entries itself from the registry's metadata, but keeps whatever entry a lock already has:
// an entry written without them stays so through later installs. This adds any missing entry and
// completes any entry without integrity from the registry (`npm view`), as npm would write it.
// Run after `npm install`; `--check` only reports (exit 1) what it would change.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

const check = process.argv.includes('--check')
const file = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages

// Optional dependencies with no entry at all: a version-only placeholder, completed below.
for (const [key, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${key ? `${key}/` : ''}node_modules/${name}`
    const hoisted = `node_modules/${name}`
    if (packages[nested] || packages[hoisted]) continue
    packages[hoisted] = { version, ...(meta.dev ? { dev: true } : {}), optional: true }
  }
}

const incomplete = Object.entries(packages).filter(
  ([key, meta]) => key !== '' && meta.optional && !meta.integrity && !meta.link,
)
if (check) {
  for (const [key, meta] of incomplete) console.log(`${key}@${meta.version}: no integrity, os or cpu`)
  console.log(`package-lock.json: ${incomplete.length} incomplete optional entr${plural(incomplete.length)}`)
  process.exit(incomplete.length ? 1 : 0)
}

for (const [key, meta] of incomplete) {
  const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)
  const manifest = JSON.parse(
    execFileSync('npm', ['view', `${name}@${meta.version}`, '--json'], { encoding: 'utf8' }),
  )
  if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
    // Its own dependencies would need entries too: leave that to npm itself.
    console.error(`${name}@${meta.version} has dependencies: run \`npm install --package-lock-only\``)
    process.exit(1)
  }
  // npm's own key order for such an entry, so a later `npm install` leaves it as it is.
  packages[key] = dropUndefined({
    version: meta.version,
    integrity: manifest.dist?.integrity,
    cpu: manifest.cpu,
    dev: meta.dev,
    libc: manifest.libc,
    license: manifest.license,
    optional: true,
    os: manifest.os,
    engines: manifest.engines,
  })
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`package-lock.json: ${incomplete.length} optional entr${plural(incomplete.length)} completed`)

function plural(n) {
  return n === 1 ? 'y' : 'ies'
}

function dropUndefined(entry) {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined))
}
