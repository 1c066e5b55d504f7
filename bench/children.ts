import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * The environment of a bench server: the per-IP, registration and mail limits raised so the load
 * is not refused (1,000,000 a minute is the most allowed), tokens that outlive the run, no logging;
 * the caller's environment (DATABASE_URL...) in between.
 */
export function benchServerEnv(): NodeJS.ProcessEnv {
  return {
    RATE_LIMIT_PER_IP: '1000000',
    REGISTRATIONS_PER_HOUR: '10000000',
    MAILS_PER_HOUR: '10000000',
    ACCESS_TOKEN_TTL_SECONDS: '86400',
    ...process.env,
    LOG_LEVEL: 'silent',
  }
}

export interface ServerProcess {
  ports: Record<string, number>
  /** The server's process id (its memory is read from /proc). */
  pid: number
  stop(): Promise<void>
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Runs `bench/<script>` in its own Node process and waits for the JSON line with its ports. With
 * `cpuProfileDir`, Node writes a .cpuprofile there when the process exits (bench/profile.ts reads it).
 */
export async function startServer(
  script: string,
  env: NodeJS.ProcessEnv,
  cpuProfileDir?: string,
): Promise<ServerProcess> {
  const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', `bench/${script}`], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    await withTimeout(exited, 30_000, `stopping ${script}`).catch(() => child.kill('SIGKILL'))
  }
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    void exited.then(() => reject(new Error(`${script} exited with ${child.exitCode} before listening`)))
  })
  try {
    const ports = JSON.parse(await withTimeout(firstLine, 120_000, `starting ${script}`)) as Record<
      string,
      number
    >
    return { ports, pid: child.pid ?? 0, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
