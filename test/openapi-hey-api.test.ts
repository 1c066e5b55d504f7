import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createClient } from '@hey-api/openapi-ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, startTestContext, type TestContext, uniqueEmail } from './harness.js'

// Clients generated with @hey-api/openapi-ts from both served documents (saved to files, as an
// integrator's build does, so nothing but the documents tells the generator where the APIs are):
// a small program (./openapi-client/hey-api-program.ts) typechecks against them and runs against
// both APIs listening on real ports, with no base URL and no Page or PageSize of its own.

const run = promisify(execFile)
const here = path.dirname(fileURLToPath(import.meta.url))
const resolve = createRequire(import.meta.url).resolve
const tsc = resolve('typescript/bin/tsc')
const tsx = resolve('tsx/cli')
const PROGRAM = path.join(here, 'openapi-client', 'hey-api-program.ts')

let ctx: TestContext
const urls = { core: '', global: '' }
let workDir: string

beforeAll(async () => {
  ctx = await startTestContext()
  for (const api of ['core', 'global'] as const) {
    await ctx[api].listen({ host: '127.0.0.1', port: 0 })
    const address = ctx[api].server.address()
    if (typeof address !== 'object' || !address) throw new Error('not listening on TCP')
    urls[api] = `http://127.0.0.1:${address.port}`
  }
  workDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-hey-api-'))
})
afterAll(async () => {
  await ctx?.close()
  if (workDir) rmSync(workDir, { recursive: true, force: true })
})

describe('clients generated with @hey-api/openapi-ts', () => {
  it('take the base URL from the documents and typecheck a program that passes no defaulted parameter', async () => {
    // An ES module program, checked as Node resolves it (the generator reads the same tsconfig).
    writeFileSync(path.join(workDir, 'package.json'), JSON.stringify({ type: 'module' }))
    writeFileSync(
      path.join(workDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          // The generated fetch client uses the DOM's fetch and URLSearchParams; the program reads argv.
          lib: ['es2022', 'dom', 'dom.iterable'],
          typeRoots: [path.join(here, '..', 'node_modules', '@types')],
          types: ['node'],
          skipLibCheck: true,
        },
        files: ['program.ts', 'wrong.ts'],
      }),
    )
    for (const api of ['core', 'global'] as const) {
      const document = path.join(workDir, `${api}.json`)
      writeFileSync(document, await (await fetch(`${urls[api]}/openapi.json`)).text())
      await createClient({
        input: document,
        output: {
          path: path.join(workDir, 'hey-api', api),
          tsConfigPath: path.join(workDir, 'tsconfig.json'),
        },
        logs: { level: 'silent', file: false },
        plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      })
      // The client's default base URL is the document's server: where the document came from.
      const config = readFileSync(path.join(workDir, 'hey-api', api, 'client.gen.ts'), 'utf8')
      expect(config).toContain(`baseUrl: '${urls[api]}'`)
    }
    copyFileSync(PROGRAM, path.join(workDir, 'program.ts'))
    writeFileSync(
      path.join(workDir, 'wrong.ts'),
      [
        "import { getCustomer, getAllCustomers } from './hey-api/core/sdk.gen.js'",
        'export const noPath = () => getCustomer({})',
        "export const badPage = () => getAllCustomers({ query: { Page: 'one' } })",
        '',
      ].join('\n'),
    )
    const output = await run(process.execPath, [tsc, '-p', workDir], { cwd: workDir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line))
    // The program compiles; the wrong file fails on each of its two calls, so the check is real.
    expect(
      errors.filter((line) => !line.startsWith('wrong.ts')),
      output,
    ).toEqual([])
    expect(errors.some((line) => line.startsWith('wrong.ts(2'))).toBe(true)
    expect(errors.some((line) => line.startsWith('wrong.ts(3'))).toBe(true)
  }, 180_000)

  it('run that program against the started servers', async () => {
    const email = uniqueEmail('hey')
    const { stdout } = await run(process.execPath, [tsx, 'program.ts', email, PASSWORD], { cwd: workDir })
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '{}')).toEqual({
      code: 'CUS-000001',
      totalCount: 1,
      page: 1,
      pageSize: 20,
      names: ['Hey Client Co'],
    })
  }, 120_000)
})
