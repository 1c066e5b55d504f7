import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository: the console is tested as `npm start` serves it, from dist/ and web/dist/. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** A port nobody listens on now (the OS picks it; we close it again at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

function run(args: string[], env: NodeJS.ProcessEnv, until: RegExp, timeoutMs: number) {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js'), ...args], { cwd: ROOT, env })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const done = new Promise<string>((resolve, reject) => {
    const deadline = setTimeout(
      () => reject(new Error(`cartage ${args.join(' ')} took too long:\n${output}`)),
      timeoutMs,
    )
    const check = setInterval(() => {
      if (until.test(output)) {
        clearInterval(check)
        clearTimeout(deadline)
        resolve(output)
      }
    }, 50)
    child.once('exit', (code) => {
      setTimeout(() => {
        clearInterval(check)
        clearTimeout(deadline)
        if (until.test(output)) resolve(output)
        else reject(new Error(`cartage ${args.join(' ')} exited with ${code}:\n${output}`))
      }, 100)
    })
  })
  return { child, done, output: () => output }
}

export interface DemoServer {
  core: string
  global: string
  email: string
  password: string
  businessId: string
  branchId: string
  dataDir: string
  output: () => string
  stop(): Promise<void>
}

/**
 * The demo organisation seeded into `dataDir`. Under the console's test run (web/e2e/global-setup.ts
 * names a template directory in CARTAGE_E2E_DEMO_TEMPLATE) the first file seeds and keeps a copy,
 * and the files after it start from that copy: seeding is most of a file's time.
 */
async function seededDemo(dataDir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const template = process.env.CARTAGE_E2E_DEMO_TEMPLATE
  const kept = template && path.join(template, 'seeded.txt')
  if (template && kept && existsSync(kept)) {
    cpSync(path.join(template, 'data'), dataDir, { recursive: true })
    return readFileSync(kept, 'utf8')
  }
  // Generous: on a busy machine seeding alone has taken over two minutes.
  const seeding = run(['seed', '--demo'], env, /business: (\S+) \(branch (\S+)\)/, 300_000)
  const seeded = await seeding.done
  // It prints the owner before it has closed its database: copied only once it has exited.
  if (seeding.child.exitCode === null && seeding.child.signalCode === null)
    await new Promise((resolve) => seeding.child.once('exit', resolve))
  if (template && kept) {
    // The data directory's lock (cartage.lock*) belongs to a process, not to the data.
    const data = (source: string) => !path.basename(source).startsWith('cartage.lock')
    cpSync(dataDir, path.join(template, 'data'), { recursive: true, filter: data })
    writeFileSync(kept, seeded)
  }
  return seeded
}

/**
 * A data directory with the demo organisation (`cartage seed --demo`), and the built server on it
 * (`cartage serve`, as `npm start` runs it) on two free ports of this machine; `extraEnv` adds to
 * or overrides its environment (e.g. letting webhooks reach a receiver on this machine).
 */
export async function startDemoServer(extraEnv: Record<string, string> = {}): Promise<DemoServer> {
  for (const built of ['dist/main.js', 'web/dist/index.html'])
    if (!existsSync(path.join(ROOT, built)))
      throw new Error(`${built} is missing: run npm run build and npm run build:console first`)
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-console-e2e-'))
  const [corePort, globalPort] = [await freePort(), await freePort()]
  const env = {
    ...process.env,
    CARTAGE_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    CORE_PORT: String(corePort),
    GLOBAL_PORT: String(globalPort),
    LOG_LEVEL: 'warn',
    // Every test signs in from one address.
    RATE_LIMIT_PER_IP: '10000',
    ...extraEnv,
  }
  const seeded = await seededDemo(dataDir, env)
  const server = run(['serve'], env, /Global API: /, 120_000)
  await server.done
  return {
    // "localhost", as the README says to open it (the Global API's default CORS origins name it).
    core: `http://localhost:${corePort}`,
    global: `http://localhost:${globalPort}`,
    email: /email: +(\S+)/.exec(seeded)?.[1] ?? '',
    password: /password: +(\S+)/.exec(seeded)?.[1] ?? '',
    businessId: /business: (\S+) \(branch/.exec(seeded)?.[1] ?? '',
    branchId: /\(branch (\S+)\)/.exec(seeded)?.[1] ?? '',
    dataDir,
    output: server.output,
    async stop() {
      const child: ChildProcess = server.child
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
