import path from 'node:path'

/** Typed configuration read once from the environment. Bad values stop start-up with one line each. */
export interface Config {
  /** PostgreSQL connection string; absent means the embedded database (PGlite) under `dataDir`. */
  databaseUrl: string | undefined
  dataDir: string
  host: string
  corePort: number
  globalPort: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Largest accepted JSON request body in bytes. */
  bodyLimit: number
  /** Connections per process in the PostgreSQL pool (the embedded database always has one). */
  dbPoolSize: number
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

type Env = Readonly<Record<string, string | undefined>>
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = []
  const read = <T>(name: string, fallback: T, parse: (raw: string) => T | string): T => {
    const raw = env[name]
    if (raw === undefined || raw.trim() === '') return fallback
    const parsed = parse(raw.trim())
    // Parsers return a string to report a problem and the parsed value otherwise.
    if (typeof parsed === 'string' && typeof fallback !== 'string') {
      problems.push(`${name}=${JSON.stringify(raw)}: ${parsed}`)
      return fallback
    }
    return parsed as T
  }
  const integer =
    (min: number, max: number) =>
    (raw: string): number | string => {
      if (!/^\d+$/.test(raw)) return `must be a whole number from ${min} to ${max}`
      const n = Number(raw)
      return n >= min && n <= max ? n : `must be a whole number from ${min} to ${max}`
    }

  const databaseUrl = env.DATABASE_URL?.trim() || undefined
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL: must start with postgres:// or postgresql://')
  }
  const logLevelRaw = env.LOG_LEVEL?.trim() || 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevelRaw)) {
    problems.push(`LOG_LEVEL=${JSON.stringify(logLevelRaw)}: must be one of ${LOG_LEVELS.join(', ')}`)
  }
  const config: Config = {
    databaseUrl,
    dataDir: path.resolve(env.CARTAGE_DATA_DIR?.trim() || 'data'),
    host: env.HOST?.trim() || '0.0.0.0',
    corePort: read('CORE_PORT', 8080, integer(0, 65535)),
    globalPort: read('GLOBAL_PORT', 8081, integer(0, 65535)),
    logLevel: (LOG_LEVELS as readonly string[]).includes(logLevelRaw)
      ? (logLevelRaw as Config['logLevel'])
      : 'info',
    bodyLimit: read('BODY_LIMIT_BYTES', 1_048_576, integer(1024, 104_857_600)),
    dbPoolSize: read('DB_POOL_SIZE', 10, integer(1, 200)),
  }
  if (config.corePort !== 0 && config.corePort === config.globalPort) {
    problems.push('CORE_PORT and GLOBAL_PORT: must differ')
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}
