#!/usr/bin/env node
// The package registry reachable from our machines serves only the Linux builds of packages with
// per-platform binaries (biome, esbuild, rollup...). `npm install` then leaves the other platforms'
// optional dependencies out of package-lock.json, and `npm ci` refuses the lock as out of sync.
// This adds each missing optional dependency as a version-only entry: `npm ci` accepts the lock,
// and skips those packages as optional where they cannot be installed. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs'

const file = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages
let added = 0
for (const [key, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${key ? `${key}/` : ''}node_modules/${name}`
    const hoisted = `node_modules/${name}`
    if (packages[nested] || packages[hoisted]) continue
    packages[hoisted] = { version, ...(meta.dev ? { dev: true } : {}), optional: true }
    added++
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`package-lock.json: ${added} optional platform entr${added === 1 ? 'y' : 'ies'} added`)
