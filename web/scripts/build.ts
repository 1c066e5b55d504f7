// Builds the console: the API client generated from the OpenAPI documents the apps produce, then
// the Vite build into web/dist, then a brotli and a gzip copy of each asset for @fastify/static's
// preCompressed serving. `npm run build:console`; the install step runs it through
// scripts/build-if-stale.mjs.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { createClient } from '@hey-api/openapi-ts'
import { build } from 'vite'
import { openApiDocuments } from './openapi-documents.js'

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const generated = path.join(web, 'src', 'api', 'generated')
const dist = path.join(web, 'dist')
const started = Date.now()
const step = (what: string) =>
  process.stdout.write(`console: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`)

export async function generateClients(): Promise<void> {
  const documents = await openApiDocuments()
  for (const [name, document] of Object.entries(documents)) {
    await createClient({
      input: document,
      output: { path: path.join(generated, name) },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk', '@tanstack/react-query'],
      logs: { level: 'silent' },
    })
  }
}

/** Text assets above 1 KB get .br and .gz siblings; the server picks what the browser accepts. */
function precompress(dir: string): void {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) {
      precompress(file)
      continue
    }
    if (!/\.(js|css|svg|json|html|txt)$/.test(name) || statSync(file).size < 1024) continue
    const content = readFileSync(file)
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    )
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }))
  }
}

async function main() {
  rmSync(generated, { recursive: true, force: true })
  await generateClients()
  step('API client generated from the OpenAPI documents')
  rmSync(dist, { recursive: true, force: true })
  await build({ configFile: path.join(web, 'vite.config.ts'), logLevel: 'warn' })
  step('bundle built')
  precompress(path.join(dist, 'assets'))
  writeFileSync(path.join(dist, '.build-stamp'), `${new Date().toISOString()}\n`)
  step('assets compressed; web/dist is ready')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(
        `console build failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      )
      process.exit(1)
    },
  )
}
