import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyBaseLogger, InjectOptions as LightInjectOptions, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, inject } from 'vitest'
import { openCartage } from '../src/apps/cartage.js'
import { MIGRATIONS } from '../src/apps/modules.js'
import { loadConfig } from '../src/config.js'
import { type Database, openDatabase } from '../src/db/database.js'
import { shortId } from '../src/db/ids.js'
import { migrate } from '../src/db/migrator.js'
import type { HttpApp } from '../src/http/kernel.js'
import { MemoryMailer } from '../src/mail/mailer.js'
import type { Services } from '../src/platform/services.js'
import { countRegistration } from './registration-count.js'
import { createScratchDatabase } from './scratch-database.js'
import { testClusters, testDatabaseUrl } from './test-database.js'

export interface TestContext {
  /** The context's private data directory (embedded database, files, mail, signing key). */
  dataDir: string
  core: HttpApp
  global: HttpApp
  database: Database
  services: Services
  mailer: MemoryMailer
  close(): Promise<void>
}

/**
 * The embedded database of this test process: one copy of the migrated template per worker,
 * shared by the files the worker runs one after another (vitest.config.ts: `isolate: false`), as
 * every file shares the one database on PostgreSQL. Each test registers its own organisations, so
 * files never see each other's data. Opening a PGlite (a WASM instance and its data directory) per
 * file cost about a second of CPU each; the worker's process exit ends it, and the global
 * teardown removes its directory.
 */
const workerDatabaseKey = Symbol.for('cartage.test.workerDatabase')
type WorkerDatabaseHolder = { [workerDatabaseKey]?: Promise<Database> }

function workerEmbeddedDatabase(): Promise<Database> {
  const holder = globalThis as WorkerDatabaseHolder
  holder[workerDatabaseKey] ??= (async () => {
    const template = inject('templateDataDir')
    const dir = path.join(`${template}-workers`, `worker-${process.pid}`)
    cpSync(template, dir, { recursive: true })
    return openDatabase({
      migrations: MIGRATIONS,
      dataDir: dir,
      poolSize: 1,
      applicationName: 'cartage-test',
    })
  })()
  return holder[workerDatabaseKey]
}

/**
 * A data directory for the context (files, mail, signing key) and a database: the worker's shared
 * one, or with `own: true` a database no other file sees (a private copy of the template, or a
 * new migrated PostgreSQL database, dropped at the end of the run), for a test that puts the database in a state others must not
 * observe (a schema left behind by migrations, say).
 */
export async function openTestDatabase(options: { own?: boolean } = {}): Promise<{
  database: Database
  dataDir: string
  close(): Promise<void>
}> {
  const databaseUrl = testDatabaseUrl()
  // A private data directory in both modes: local files and mail must never land in the working tree.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-test-'))
  const opened = options.own
    ? await openOwnDatabase(databaseUrl, dataDir)
    : await openSharedDatabase(databaseUrl, dataDir)
  return {
    database: opened.database,
    dataDir,
    async close() {
      await opened.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The worker's embedded database (kept open for the worker's next files), or a pool on the test database. */
async function openSharedDatabase(databaseUrl: string | undefined, dataDir: string) {
  if (!databaseUrl) return { database: await workerEmbeddedDatabase(), close: async () => {} }
  const database = await openDatabase({
    migrations: MIGRATIONS,
    databaseUrl,
    dataDir,
    poolSize: 5,
    applicationName: 'cartage-test',
    ...testClusters(),
  })
  return { database, close: () => database.close() }
}

/** A private copy of the migrated template, or a new migrated PostgreSQL database dropped on close. */
async function openOwnDatabase(databaseUrl: string | undefined, dataDir: string) {
  if (!databaseUrl) {
    const dbDir = path.join(dataDir, 'db')
    cpSync(inject('templateDataDir'), dbDir, { recursive: true })
    const database = await openDatabase({
      migrations: MIGRATIONS,
      dataDir: dbDir,
      poolSize: 1,
      applicationName: 'cartage-test',
    })
    return { database, close: () => database.close() }
  }
  const scratch = await createScratchDatabase(databaseUrl, 'own')
  const database = await openDatabase({
    migrations: MIGRATIONS,
    databaseUrl: scratch.url,
    dataDir,
    poolSize: 5,
    applicationName: 'cartage-test',
  })
  await migrate(database)
  // Dropped with the run's other scratch databases by the global teardown (test/scratch-database.ts).
  return { database, close: () => database.close() }
}

/**
 * Both apps over one database, exercised through Fastify's inject (the real HTTP stack, no socket).
 * `logger` (e.g. pino over a memory stream) lets a test read what would be logged.
 */
export async function startTestContext(
  env: Record<string, string> = {},
  options: { logger?: FastifyBaseLogger } = {},
): Promise<TestContext> {
  const { database, dataDir, close: closeDatabase } = await openTestDatabase()
  // Generous per-IP limits: every injected request comes from one address. The rate-limit
  // tests build their own context with tight limits.
  const config = {
    ...loadConfig({
      RATE_LIMIT_PER_IP: '100000',
      RATE_LIMIT_PER_ACCOUNT: '100000',
      REGISTRATIONS_PER_HOUR: '10000000',
      MAILS_PER_HOUR: '10000000',
      ...env,
    }),
    databaseUrl: testDatabaseUrl(),
    dataDir,
  }
  const mailer = new MemoryMailer()
  // Migrated once per run (test/global-setup.ts); the database stays open for the worker's next file.
  const cartage = await openCartage(config, {
    database,
    migrate: false,
    mailer,
    logger: options.logger ?? false,
  }).catch(async (error: unknown) => {
    await closeDatabase()
    throw error
  })
  const { core, global, services } = cartage
  return {
    dataDir,
    core,
    global,
    database,
    services,
    mailer,
    async close() {
      await cartage.close()
      await closeDatabase()
    },
  }
}

/**
 * One context for the whole file (or the enclosing describe), opened before its tests and closed
 * after them, then `afterClose` runs (to remove what the context used). The returned object is
 * filled in by the beforeAll hook, so read it only inside tests.
 */
export function useTestContext(env: Record<string, string> = {}, afterClose?: () => void): TestContext {
  const ctx = {} as TestContext
  beforeAll(async () => {
    Object.assign(ctx, await startTestContext(env))
  })
  afterAll(async () => {
    await ctx.close()
    afterClose?.()
  })
  return ctx
}

/** A second "process" for the Core API: its own services and caches over the same database. Close it. */
export async function secondCoreApp(ctx: TestContext): Promise<HttpApp> {
  // The same deployment: the same data directory (and so the same signing key file).
  const config = { ...loadConfig({}), dataDir: ctx.dataDir }
  const second = await openCartage(config, {
    apis: ['core'],
    database: ctx.database,
    migrate: false,
    mailer: new MemoryMailer(),
  })
  return second.core
}

export const uniqueEmail = (label = 'user') => `${label}-${shortId(6)}@example.com`

export const PASSWORD = 'correct-horse-battery'

export function registrationBody(overrides: { email?: string; registeredName?: string } = {}) {
  return {
    business: {
      registeredName: overrides.registeredName ?? `Test Org ${shortId(3)}`,
      displayName: 'Test Org',
      email: 'ops@example.com',
      phoneNumber: '+27 21 555 0100',
      website: 'https://example.com',
      registrationNumber: '2026/000001/07',
      requiresDispatchBuilder: true,
      address: {
        fullAddress: '1 Main Road, Cape Town',
        city: 'Cape Town',
        country: 'ZA',
        latitude: -33.92,
        longitude: 18.42,
      },
    },
    user: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: overrides.email ?? uniqueEmail(),
      phoneNumber: '+27 82 000 0000',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      acceptedTerms: true,
    },
  }
}

export interface RegisteredOrganization {
  businessId: string
  userId: string
  email: string
  password: string
}

export async function registerOrganization(
  ctx: TestContext,
  email = uniqueEmail(),
): Promise<RegisteredOrganization> {
  countRegistration()
  const response = await ctx.global.inject({
    method: 'POST',
    url: '/api/organizations',
    payload: registrationBody({ email }),
  })
  if (response.statusCode !== 200)
    throw new Error(`registration failed: ${response.statusCode} ${response.body}`)
  const data = response.json().data as { id: string; currentUser: { id: string } }
  return { businessId: data.id, userId: data.currentUser.id, email, password: PASSWORD }
}

export interface SignedIn {
  accessToken: string
  /** `cartage_refresh=<token>`, ready for a Cookie header. */
  refreshCookie: string
}

/** Signs in through the Global API (the user must have exactly one organisation). */
export async function signIn(ctx: TestContext, org: { email: string; password: string }): Promise<SignedIn> {
  const response = await ctx.global.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: org.email, password: org.password },
  })
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`)
  const session = response.json().data.session as { accessToken: string } | null
  if (!session) throw new Error('login asked for organisation selection; use select-organization')
  const cookie = response.cookies.find((c) => c.name === 'cartage_refresh')
  return { accessToken: session.accessToken, refreshCookie: `cartage_refresh=${cookie?.value ?? ''}` }
}

export type Credential = { accessToken: string; businessId: string } | { apiKey: string }

export const credentialHeaders = (credential: Credential): Record<string, string> =>
  'apiKey' in credential
    ? { 'x-dispatch-api-key': credential.apiKey }
    : { authorization: `Bearer ${credential.accessToken}`, 'x-business-id': credential.businessId }

type InjectOptions = LightInjectOptions

/** Injects into one app as one caller. */
export type Core = (options: InjectOptions) => Promise<LightMyRequestResponse>

/** Injects into the Core API as `credential`. */
export function coreAs(ctx: TestContext, credential: Credential): Core {
  return (options: InjectOptions) =>
    ctx.core.inject({ ...options, headers: { ...credentialHeaders(credential), ...(options.headers ?? {}) } })
}

/** A caller of the Global API: a person's access token, or an API key. */
export type GlobalCaller = { bearer: string } | { apiKey: string }

/** Injects into the Global API as `caller`. */
export function globalAs(ctx: TestContext, caller: GlobalCaller): Core {
  const headers: Record<string, string> =
    'apiKey' in caller
      ? { 'x-dispatch-api-key': caller.apiKey }
      : { authorization: `Bearer ${caller.bearer}` }
  return (options: InjectOptions) =>
    ctx.global.inject({ ...options, headers: { ...headers, ...(options.headers ?? {}) } })
}

/** A freshly registered organisation with its owner signed in: the usual start of a Core API test. */
export async function ownerSession(ctx: TestContext) {
  const org = await registerOrganization(ctx)
  const signedIn = await signIn(ctx, org)
  const credential = { accessToken: signedIn.accessToken, businessId: org.businessId }
  return { org, signedIn, credential, core: coreAs(ctx, credential) }
}

export type OwnerSession = Awaited<ReturnType<typeof ownerSession>>

/**
 * One organisation and its signed-in owner for the whole file (or the enclosing describe),
 * registered once before its tests: for tests that only add to it and read back what they
 * added, or need "another organisation" for a 404. Registering one (a schema with every table)
 * is the dearest step of most tests; a test that counts or numbers what it finds, or changes
 * the organisation itself, keeps its own `ownerSession(ctx)`. Call after `useTestContext`; the
 * object is filled in by the beforeAll hook, so read it only inside tests.
 */
export function useOwnerSession(ctx: TestContext): OwnerSession {
  const owner = {} as OwnerSession
  beforeAll(async () => {
    Object.assign(owner, await ownerSession(ctx))
  })
  return owner
}
