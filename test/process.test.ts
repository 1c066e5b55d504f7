import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { registrationBody, uniqueEmail } from './harness.js'
import { testDatabaseUrl } from './test-database.js'

// The real binary over real sockets: start-up, configuration errors, SIGTERM draining, restart.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-process-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const baseEnv = () => {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    CARTAGE_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    CORE_PORT: '0',
    GLOBAL_PORT: '0',
    LOG_LEVEL: 'info',
  }
  const url = testDatabaseUrl()
  if (url) env.DATABASE_URL = url
  else delete env.DATABASE_URL
  return env
}
const cli = ['--import', 'tsx', 'src/main.ts']

interface Server {
  child: ChildProcessWithoutNullStreams
  core: string
  global: string
  output: () => string
  exited: Promise<number | null>
}

async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, [...cli, 'serve'], { env: baseEnv() })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + 45_000
  while (!/Global API: (\S+)/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${out}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    child,
    core: /Core API: (\S+)/.exec(out)?.[1] ?? '',
    global: /Global API: (\S+)/.exec(out)?.[1] ?? '',
    output: () => out,
    exited,
  }
}

describe('cartage serve', () => {
  it('stops at start-up with one line per bad variable', () => {
    const result = spawnSync(process.execPath, [...cli, 'serve'], {
      env: { ...baseEnv(), CORE_PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' },
      encoding: 'utf8',
    })
    expect(result.status).toBe(2)
    const lines = result.stderr.trim().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines.join('\n')).toMatch(/DATABASE_URL.*postgres/)
    expect(lines.join('\n')).toMatch(/LOG_LEVEL.*one of/)
    expect(lines.join('\n')).toMatch(/CORE_PORT.*whole number/)
  })

  it('serves both APIs, drains an in-flight request on SIGTERM, and keeps data across a restart', async () => {
    const email = uniqueEmail('process')
    const first = await startServer()
    expect((await fetch(`${first.core}/health/ready`)).status).toBe(200)
    expect((await fetch(`${first.global}/docs`)).status).toBe(200)

    const pending = fetch(`${first.global}/api/organizations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody({ email })),
    })
    // Signal only once the server has the request in hand, so draining is what is tested.
    while (!first.output().includes('"url":"/api/organizations"')) await new Promise((r) => setTimeout(r, 5))
    first.child.kill('SIGTERM')
    const response = await pending
    expect(response.status).toBe(200)
    const firstExit = await first.exited
    expect(firstExit, first.output()).toBe(0)
    expect(first.output()).not.toContain(registrationBody().user.password)

    const second = await startServer()
    try {
      const check = await fetch(
        `${second.global}/api/organizations/soft-check?emailAddress=${encodeURIComponent(email)}`,
      )
      expect(((await check.json()) as { data: boolean }).data).toBe(true)
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    }

    const status = spawnSync(process.execPath, [...cli, 'db:status'], { env: baseEnv(), encoding: 'utf8' })
    expect(status.status).toBe(0)
    expect(status.stdout).toContain('global migrations pending: none')
  }, 120_000)
})
