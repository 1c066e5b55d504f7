import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, startTestContext, type TestContext, uniqueEmail } from './harness.js'

// A generated client gets named types: TypeScript is generated from both published documents with
// openapi-typescript, a small client (./openapi-client/client.ts) is typechecked against it, and
// the same client is run against both APIs listening on real ports.

const here = path.dirname(fileURLToPath(import.meta.url))
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
// The client is loaded at run time: its types exist only once the test has generated them.
interface Endpoints {
  core: string
  global: string
}
interface Client {
  register(api: Endpoints, email: string, password: string): Promise<string>
  signIn(
    api: Endpoints,
    email: string,
    password: string,
  ): Promise<{ accessToken: string; statusCode: number }>
  createAndListCustomers(api: Endpoints, accessToken: string, businessId: string): Promise<unknown>
}
const CLIENT = path.join(here, 'openapi-client', 'client.ts')
let ctx: TestContext
let api: Endpoints
let workDir: string

beforeAll(async () => {
  ctx = await startTestContext()
  const urlOf = async (app: TestContext['core']) => {
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (typeof address !== 'object' || !address) throw new Error('not listening on TCP')
    return `http://127.0.0.1:${address.port}`
  }
  api = { core: await urlOf(ctx.core), global: await urlOf(ctx.global) }
  workDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-openapi-client-'))
})
afterAll(async () => {
  await ctx?.close()
  if (workDir) rmSync(workDir, { recursive: true, force: true })
})

describe('types generated from the OpenAPI documents', () => {
  it('typecheck a client of both APIs, and reject one that reads a field no record has', async () => {
    mkdirSync(path.join(workDir, 'generated'))
    for (const name of ['core', 'global'] as const) {
      const document = (await (await fetch(`${api[name]}/openapi.json`)).json()) as OpenAPI3
      // Request fields with a default (e.g. the registration flags) are optional to send; by
      // default openapi-typescript would make them required.
      const source = astToString(await openapiTS(document, { defaultNonNullable: false }))
      writeFileSync(path.join(workDir, 'generated', `${name}.ts`), source)
    }
    copyFileSync(CLIENT, path.join(workDir, 'client.ts'))
    writeFileSync(
      path.join(workDir, 'wrong.ts'),
      [
        "import type { components } from './generated/core.js'",
        "export const code = (c: components['schemas']['CustomerResponse']) => c.customerCode",
        "export const body: components['schemas']['CreateCustomerRequest'] = { name: 1 }",
        '',
      ].join('\n'),
    )
    writeFileSync(
      path.join(workDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          types: [],
          skipLibCheck: true,
        },
        files: ['client.ts', 'wrong.ts'],
      }),
    )
    const output = await promisify(execFile)(process.execPath, [tsc, '-p', workDir], { cwd: workDir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line))
    // The client compiles cleanly; the wrong file fails exactly where it is wrong.
    expect(
      errors.filter((line) => !line.startsWith('wrong.ts')),
      output,
    ).toEqual([])
    expect(errors.some((line) => line.startsWith('wrong.ts(2') && line.includes('customerCode'))).toBe(true)
    expect(errors.some((line) => line.startsWith('wrong.ts(3'))).toBe(true)
  })

  it('describe what the started servers answer to that client', async () => {
    const { register, signIn, createAndListCustomers } = (await import(pathToFileURL(CLIENT).href)) as Client
    const email = uniqueEmail('typed')
    const businessId = await register(api, email, PASSWORD)
    const { accessToken, statusCode } = await signIn(api, email, PASSWORD)
    expect(statusCode).toBe(200)
    expect(accessToken).not.toBe('')
    const result = await createAndListCustomers(api, accessToken, businessId)
    expect(result).toEqual({
      code: 'CUS-000001',
      statusName: 'OK',
      contactName: 'Con Tact',
      totalCount: 1,
      hasMore: false,
      firstName: 'Generated Client Co',
      deniedCode: expect.any(String),
      deniedStatus: 401,
    })
  })
})
