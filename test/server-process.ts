import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, inject } from 'vitest'
import { distIsFresh } from '../scripts/dist-stamp.mjs'

/**
 * The time a test that runs real processes may take. Each such process starts the CLI (and
 * compiles the sources through tsx when dist/ is stale) and may create and migrate an embedded data directory: seconds alone, but several times
 * that while the other test workers keep every core busy, and more again when other work shares
 * the machine (a load average of 25 on 2 cores has been seen).
 */
export const PROCESS_TEST_TIMEOUT_MS = 300_000
/** How long a server process may take to announce its addresses, under the same load. */
export const PROCESS_START_TIMEOUT_MS = 150_000

/**
 * A new data directory for the processes of a test: on the embedded suite, a copy of its migrated
 * template, so each process skips creating and migrating one (the CPU of several seconds, a minute
 * or more on a busy machine); empty on the PostgreSQL suite, which has no template. Tests of what a
 * brand-new directory does make their own.
 */
export function migratedDataDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  const template = inject('templateDataDir')
  if (template) cpSync(template, dir, { recursive: true })
  return dir
}

/**
 * A data directory for the processes of this file (or describe), made before its tests and
 * removed after them: a copy of the migrated template (`migratedDataDir`), or with `fresh: true`
 * an empty one, for a story about what a brand-new directory does (the process then creates and
 * migrates its embedded database). Made in a hook, so a skipped describe leaves nothing behind:
 * read `path` inside tests and later hooks.
 */
export function useServerDataDir(prefix: string, options: { fresh?: boolean } = {}): { path: string } {
  const dir = { path: '' }
  beforeAll(() => {
    dir.path = options.fresh ? mkdtempSync(path.join(os.tmpdir(), prefix)) : migratedDataDir(prefix)
  })
  afterAll(() => {
    if (dir.path) rmSync(dir.path, { recursive: true, force: true })
  })
  return dir
}

export interface ServerEnvOptions {
  /** The process's `CARTAGE_DATA_DIR`. */
  dataDir: string
  /**
   * The PostgreSQL database the process uses; without one it runs on the embedded database in
   * `dataDir`, whatever database the suite runs on (the suite's DATABASE_URL is removed).
   */
  databaseUrl?: string | undefined
  /** Further variables (or overrides of the ones below). */
  vars?: Record<string, string>
}

/**
 * The environment every process test starts `cartage` with: the test process's own, its data
 * directory, free ports on the loopback address (the process announces them), warnings only in
 * its output, and its database.
 */
export function serverEnv(options: ServerEnvOptions): Record<string, string> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    CARTAGE_DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    CORE_PORT: '0',
    GLOBAL_PORT: '0',
    LOG_LEVEL: 'warn',
    ...options.vars,
  }
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl
  else delete env.DATABASE_URL
  return env
}

/**
 * The CLI as `npx cartage` runs it: the build (`node dist/main.js`) when dist/ is as new as the
 * sources (the gate builds before its suites), else the sources through tsx, which compiles them
 * in every process (about 3 s of CPU against 1.4 s from dist/). Arguments for `node`, relative to
 * the repository's root, where the tests run.
 */
export const CLI: readonly string[] = distIsFresh(process.cwd())
  ? ['dist/main.js']
  : ['--import', 'tsx', 'src/main.ts']

export interface CliResult {
  /** The exit code; null when a signal ended the process. */
  status: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `cartage <args>` (CLI) to its end. Never with spawnSync: a test worker blocked
 * that long cannot read vitest's answers to its progress reports, and vitest 3 fails the run with
 * `Timeout calling "onTaskUpdate"` once a block passes 60 s (easily reached on a busy machine), even
 * when every test passed.
 */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { env })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.once('error', reject)
    child.once('close', (status) => resolve({ status, stdout, stderr }))
  })
}

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams
  core: string
  global: string
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string
  exited: Promise<number | null>
}

/**
 * Stops a server process as its operator would (SIGTERM) and waits for it to exit; nothing when it
 * has already exited. A test's `finally` or `afterAll` calls it, so that no process outlives its
 * test holding a data directory or a port.
 */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  if (!server) return
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM')
  await server.exited
}

/** `cartage serve` as a real process; resolves once both APIs announce their addresses. */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = PROCESS_START_TIMEOUT_MS,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...CLI, 'serve'], { env })
  let out = ''
  const collect = (chunk: Buffer) => {
    out += chunk.toString()
  }
  child.stdout.on('data', collect)
  child.stderr.on('data', collect)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + timeoutMs
  while (!/Global API: (\S+)/.test(out)) {
    if (child.exitCode !== null) throw new Error(`server did not start (exit ${child.exitCode}):\n${out}`)
    if (Date.now() > deadline) {
      // Not left running: it would hold its data directory (and a port) for the tests after this one.
      child.kill('SIGKILL')
      await exited
      throw new Error(`server did not start in ${timeoutMs / 1000} s:\n${out}`)
    }
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
