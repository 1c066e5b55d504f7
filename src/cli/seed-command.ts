import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '../config.js'
import { DataDirInUseError, dataDirHolder } from '../db/data-dir-lock.js'
import type { HttpApp } from '../http/kernel.js'
import { canSignIn, DEMO_EMAIL, type SeedTargets, seedDemo } from './seed-demo.js'

/**
 * `cartage seed --demo`, with or without a server running. The embedded database admits one
 * process per data directory: when a server holds it, the seed goes through that server's APIs
 * (their addresses sit beside the directory's lock, data-dir-lock.ts); otherwise, and always on
 * PostgreSQL, it opens the database itself and uses the apps in-process.
 *
 * The owner's generated password is kept in the data directory (mode 0600, like the signing key):
 * run again, the seed changes nothing and prints the same credentials while they still sign in.
 */

/** The apps of this process over its own database (main.ts opens them). */
export interface LocalApps {
  core: HttpApp
  global: HttpApp
  /** Where the data is, for the first line. */
  where: string
  close(): Promise<void>
}

/** How long to wait for the process holding the data directory to serve its APIs (a server starting). */
export const WAIT_FOR_SERVER_MS = 120_000

export const demoCredentialsFile = (dataDir: string) => path.join(dataDir, 'demo-owner.json')

interface KeptCredentials {
  email: string
  password: string
  createdAt: string
}

function keptCredentials(dataDir: string): KeptCredentials | undefined {
  const file = demoCredentialsFile(dataDir)
  if (!existsSync(file)) return undefined
  const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<KeptCredentials>
  return typeof kept.email === 'string' && typeof kept.password === 'string'
    ? { email: kept.email, password: kept.password, createdAt: String(kept.createdAt ?? '') }
    : undefined
}

function keepCredentials(dataDir: string, credentials: KeptCredentials) {
  mkdirSync(dataDir, { recursive: true })
  const file = demoCredentialsFile(dataDir)
  writeFileSync(file, `${JSON.stringify(credentials)}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
}

interface Connection {
  targets: SeedTargets
  where: string
  close(): Promise<void>
}

/** The running server's APIs when one holds the data directory, else this process's own apps. */
async function connect(
  config: Config,
  openLocal: () => Promise<LocalApps>,
  print: (line: string) => void,
  waitMs: number,
): Promise<Connection> {
  const deadline = Date.now() + waitMs
  let waitingFor: number | undefined
  for (;;) {
    const holder = config.databaseUrl ? undefined : dataDirHolder(config.dataDir)
    const { core, global } = holder?.apis ?? {}
    if (holder && core && global)
      return {
        targets: { core, global },
        where: `through the server using ${config.dataDir} (process ${holder.pid}: ${core}, ${global})`,
        close: async () => {},
      }
    if (holder && (core || global))
      throw new Error(
        `the server using ${config.dataDir} (process ${holder.pid}) serves only the ${core ? 'Core' : 'Global'} API; ` +
          'the seed needs both: serve both (`cartage serve`), or stop it and seed again',
      )
    if (!holder) {
      try {
        const apps = await openLocal()
        return { targets: apps, where: `on ${apps.where}`, close: () => apps.close() }
      } catch (error) {
        if (!(error instanceof DataDirInUseError)) throw error
        // Taken a moment ago: by a server about to announce its APIs, or by another command.
      }
    }
    const pid = holder?.pid
    if (Date.now() > deadline) throw new DataDirInUseError(config.dataDir, pid)
    if (pid !== undefined && pid !== waitingFor) {
      print(`the data directory is in use by process ${pid}; waiting for it to serve its APIs`)
      waitingFor = pid
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

export async function seedDemoCommand(
  config: Config,
  openLocal: () => Promise<LocalApps>,
  print: (line: string) => void,
  waitMs = WAIT_FOR_SERVER_MS,
): Promise<void> {
  const started = Date.now()
  const connection = await connect(config, openLocal, print, waitMs)
  try {
    print(`seeding the demo organisation ${connection.where}`)
    const result = await seedDemo(connection.targets, print)
    const file = demoCredentialsFile(config.dataDir)
    if (result.created && result.password) {
      keepCredentials(config.dataDir, {
        email: result.email,
        password: result.password,
        createdAt: new Date().toISOString(),
      })
      print(
        `demo ready in ${((Date.now() - started) / 1000).toFixed(1)} s (the credentials are kept in ${file})\n` +
          `  email:    ${result.email}\n  password: ${result.password}\n` +
          `  business: ${result.businessId} (branch ${result.branchId})`,
      )
      return
    }
    const kept = keptCredentials(config.dataDir)
    if (
      kept?.email === DEMO_EMAIL &&
      (await canSignIn(connection.targets.global, kept.email, kept.password))
    ) {
      print(
        `the demo organisation already exists (created ${kept.createdAt}); nothing changed. Its owner:\n` +
          `  email:    ${kept.email}\n  password: ${kept.password}`,
      )
      return
    }
    print(
      `the demo organisation already exists; its owner is ${result.email}. ` +
        (kept
          ? `The password kept in ${file} no longer signs in (it was changed since).`
          : `Its password was printed when it was created and is not kept in ${file} ` +
            '(created elsewhere, or the file was removed).'),
    )
  } finally {
    await connection.close()
  }
}
