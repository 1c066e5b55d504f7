import path from 'node:path'
import { type ClusterSetting, MAIN_CLUSTER, type PlacementPolicy, parseClusters } from './db/clusters.js'
import { DEFAULT_EMBEDDED_SHARED_BUFFERS_MB } from './db/embedded.js'

/** Typed configuration read once from the environment. Bad values stop start-up with one line each. */
export interface Config {
  /** PostgreSQL connection string; absent means the embedded database (PGlite) under `dataDir`. */
  databaseUrl: string | undefined
  /**
   * `transaction` when DATABASE_URL reaches PostgreSQL through a pooler in transaction mode
   * (PgBouncer `pool_mode = transaction`): no session state is kept between transactions, so
   * statements are not prepared by name, the audit actor is set per transaction, and what needs a
   * session (LISTEN, the migration lock) uses `databaseDirectUrl`. `session` (default): a direct
   * connection or a session-mode pooler.
   */
  databasePoolMode: 'session' | 'transaction'
  /** A direct connection to PostgreSQL (not through the pooler); required in `transaction` pool mode. */
  databaseDirectUrl: string | undefined
  /**
   * A streaming replica of DATABASE_URL's server for the heavy reads (the SQL console, the dashboard):
   * used while its replay lag is at most `readReplicaMaxLagSeconds` and it has replayed every write
   * acknowledged before the read, waiting up to `readReplicaWaitMs` for that; else the primary serves.
   */
  databaseReadUrl: string | undefined
  readReplicaMaxLagSeconds: number
  readReplicaWaitMs: number
  /** PostgreSQL clusters beside DATABASE_URL's that hold organisation schemas (`name=url,...`); the global schema stays on DATABASE_URL. */
  databaseClusters: ClusterSetting[]
  /** Where new organisations go: the cluster holding the fewest (default), or one named cluster (`main` = DATABASE_URL's). */
  databasePlacement: PlacementPolicy
  dataDir: string
  host: string
  corePort: number
  globalPort: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Largest accepted JSON request body in bytes. */
  bodyLimit: number
  /** Connections per process in the PostgreSQL pool (the embedded database always has one). */
  dbPoolSize: number
  /** Embedded database only: PostgreSQL's shared buffer cache in MB (memory held for the server's life). */
  embeddedSharedBuffersMb: number
  /**
   * SQL console, PostgreSQL: connections of its own pool per process (apart from `dbPoolSize`, so
   * console statements never take the API's), and how many of them one organisation may use at once.
   * The embedded database runs one console statement at a time.
   */
  sqlConsoleConnections: number
  sqlConsoleConnectionsPerOrganisation: number
  /** SQL console, PostgreSQL: statement_timeout of a console statement in milliseconds. */
  sqlConsoleTimeoutMs: number
  /**
   * SQL console, embedded database: how long a console query may hold the database (milliseconds)
   * before its thread is stopped and started again (a running PGlite statement cannot be cancelled).
   */
  sqlConsoleEmbeddedTimeLimitMs: number
  /**
   * Ed25519 private key (PKCS#8 PEM) that signs access tokens; absent = generated on first start into
   * `<dataDir>/signing-key.json` (mode 0600), with PostgreSQL too. The database keeps public keys only.
   */
  jwtPrivateKey: string | undefined
  /** Life of an access token (JWT) in seconds. */
  accessTokenTtlSeconds: number
  /** Idle life of a refresh token in seconds; each renewal starts it again. */
  refreshTokenTtlSeconds: number
  /** Whether the refresh cookie carries `Secure`; turn off only for plain-http local use. */
  cookieSecure: boolean
  /** Base URL of the web app that email links point at. */
  publicAppUrl: string
  /**
   * The Core and Global APIs' base URLs as their clients reach them (behind a proxy, with any path
   * prefix), published as `servers` in each OpenAPI document; absent = the scheme and host each
   * request for the document came to.
   */
  corePublicUrl: string | undefined
  globalPublicUrl: string | undefined
  /** SMTP server for outgoing mail; absent = each message is written to `<dataDir>/mail/` (`.eml` and `.txt`). */
  smtpUrl: string | undefined
  mailFrom: string
  /**
   * Which proxies to believe about the client address (X-Forwarded-For): false (default), true,
   * a number of hops, or a comma-separated list of addresses/CIDRs. Rate limits key on that address.
   */
  trustProxy: boolean | number | string
  /**
   * Requests per minute per client IP on each abuse-prone public route: login, forgot-password,
   * reset-password, one-time-token redeem, complete-invitation, registration and soft-check.
   */
  rateLimitPerIp: number
  /**
   * Login: wrong passwords per 15 minutes for one account from one client address before that
   * pair answers 429; past as many failures from anywhere, the account's sign-ins slow down
   * (capped delay) but are never blocked. Forgot-password: requests per 15 minutes per account.
   */
  rateLimitPerAccount: number
  /** Registrations an hour for the whole instance, from any address. */
  registrationsPerHour: number
  /** Emails an hour for the whole instance (verification, reset, invitations). */
  mailsPerHour: number
  /** Largest accepted uploaded file in bytes (POST /api/files/single); larger is a 413. */
  fileMaxBytes: number
  /** Directory of uploaded files when no S3 bucket is set; absent = `<dataDir>/files`. */
  filesDir: string | undefined
  /** S3-compatible bucket for uploaded files; absent = the local directory (`filesDir`). */
  s3: S3Config | undefined
  /** Browser origins allowed to call the APIs (CORS); empty = no cross-origin access. */
  corsOrigins: string[]
  /** Whether `GET /metrics` (Prometheus) is served. */
  metricsEnabled: boolean
  /** A separate port for `/metrics`; when set, the API ports never serve it. */
  metricsPort: number | undefined
  /** How long a stop may drain in-flight requests before the process exits anyway (exit 1). */
  shutdownTimeoutMs: number
  /**
   * AES-256 key (64 hex characters or base64 of 32 bytes) that encrypts carrier credentials;
   * absent = generated on first start into `<dataDir>/carrier-credentials.key` (mode 0600).
   */
  carrierCredentialsKey: Buffer | undefined
  /** A Nominatim-compatible geocoder asked first by the address lookup; absent = the offline parser only. */
  geocoderUrl: string | undefined
  /** How long the address lookup waits for the geocoder before using the offline parser, in ms. */
  geocoderTimeoutMs: number
  /** A road network speaking OSRM's table protocol for delivery planning; absent = great-circle distances. */
  routingOsrmUrl: string | undefined
  /** How long delivery planning waits for the road network's table, in ms. */
  routingTimeoutMs: number
  /** The speed delivery planning assumes on great-circle distances, in km/h. */
  planningSpeedKmh: number
  /**
   * Whether webhooks may go to private, loopback, link-local and unique-local addresses (and http to
   * a loopback host); off = refused (server-side request forgery). For development and tests.
   */
  webhooksAllowPrivateTargets: boolean
  /** How often the webhook worker looks for due deliveries, in ms. */
  webhooksPollIntervalMs: number
  /** How long one webhook delivery may take (connect, send, read the answer), in ms. */
  webhooksTimeoutMs: number
  /**
   * AES-256 key (64 hex characters or base64 of 32 bytes) that encrypts webhook signing secrets;
   * absent = generated on first start into `<dataDir>/webhook-secrets.key` (mode 0600).
   */
  webhooksSecretsKey: Buffer | undefined
}

/** Where uploaded files go when `S3_BUCKET` is set. Credentials absent = the SDK's default chain (e.g. an instance role). */
export interface S3Config {
  bucket: string
  /** Custom endpoint for S3-compatible services (MinIO, R2, ...); absent = AWS. */
  endpoint: string | undefined
  region: string
  accessKeyId: string | undefined
  secretAccessKey: string | undefined
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>`; most self-hosted services need it. */
  forcePathStyle: boolean
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
    // Parsers return a string to report a problem (prefixed `problem: ` where the value itself is a string).
    if (typeof parsed === 'string' && (typeof fallback !== 'string' || parsed.startsWith('problem: '))) {
      problems.push(`${name}=${JSON.stringify(raw)}: ${parsed.replace(/^problem: /, '')}`)
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

  const boolean = (raw: string): boolean | string => {
    if (/^(true|1|yes|on)$/i.test(raw)) return true
    if (/^(false|0|no|off)$/i.test(raw)) return false
    return 'must be true or false'
  }
  const url = (raw: string): string => {
    try {
      const parsed = new URL(raw)
      return /^https?:$/.test(parsed.protocol) ? raw : 'problem: must be an http(s) URL'
    } catch {
      return 'problem: must be an http(s) URL'
    }
  }

  /** An http(s) URL an API is reached at: no query or fragment, no trailing slash. */
  const baseUrl = (raw: string): string => {
    const checked = url(raw)
    if (checked.startsWith('problem: ')) return checked
    const parsed = new URL(raw)
    if (parsed.search || parsed.hash || raw.includes('#')) return 'problem: must have no query or fragment'
    return raw.replace(/\/+$/, '')
  }

  const databaseUrl = env.DATABASE_URL?.trim() || undefined
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL: must start with postgres:// or postgresql://')
  }
  const databaseDirectUrl = env.DATABASE_DIRECT_URL?.trim() || undefined
  if (databaseDirectUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseDirectUrl)) {
    problems.push('DATABASE_DIRECT_URL: must start with postgres:// or postgresql://')
  }
  const databaseReadUrl = env.DATABASE_READ_URL?.trim() || undefined
  if (databaseReadUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseReadUrl)) {
    problems.push('DATABASE_READ_URL: must start with postgres:// or postgresql://')
  } else if (databaseReadUrl !== undefined && databaseUrl === undefined) {
    problems.push('DATABASE_READ_URL: needs DATABASE_URL (a replica of the embedded database cannot exist)')
  }
  const clustersRaw = env.DATABASE_CLUSTERS?.trim() || ''
  const parsedClusters = clustersRaw ? parseClusters(clustersRaw) : []
  if (typeof parsedClusters === 'string') problems.push(`DATABASE_CLUSTERS: ${parsedClusters}`)
  else if (parsedClusters.length > 0 && databaseUrl === undefined)
    problems.push('DATABASE_CLUSTERS: needs DATABASE_URL (the embedded database is one cluster)')
  const databaseClusters = typeof parsedClusters === 'string' ? [] : parsedClusters
  const placementRaw = env.DATABASE_PLACEMENT?.trim() || 'fewest'
  const databasePlacement: PlacementPolicy =
    placementRaw === 'fewest' ? { kind: 'fewest' } : { kind: 'named', cluster: placementRaw }
  if (
    databasePlacement.kind === 'named' &&
    databasePlacement.cluster !== MAIN_CLUSTER &&
    !databaseClusters.some((c) => c.name === databasePlacement.cluster)
  )
    problems.push(
      `DATABASE_PLACEMENT=${JSON.stringify(placementRaw)}: must be fewest, ${MAIN_CLUSTER} or a cluster of DATABASE_CLUSTERS`,
    )
  const poolModeRaw = env.DATABASE_POOL_MODE?.trim().toLowerCase() || 'session'
  if (poolModeRaw !== 'session' && poolModeRaw !== 'transaction') {
    problems.push(
      `DATABASE_POOL_MODE=${JSON.stringify(env.DATABASE_POOL_MODE)}: must be session or transaction`,
    )
  }
  const databasePoolMode = poolModeRaw === 'transaction' ? 'transaction' : 'session'
  if (databasePoolMode === 'transaction' && (databaseUrl === undefined || databaseDirectUrl === undefined)) {
    problems.push(
      'DATABASE_POOL_MODE=transaction: needs DATABASE_URL (the pooler) and DATABASE_DIRECT_URL (PostgreSQL itself, for LISTEN and the migration lock)',
    )
  }
  const logLevelRaw = env.LOG_LEVEL?.trim() || 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevelRaw)) {
    problems.push(`LOG_LEVEL=${JSON.stringify(logLevelRaw)}: must be one of ${LOG_LEVELS.join(', ')}`)
  }
  const corePort = read('CORE_PORT', 8080, integer(0, 65535))
  const config: Config = {
    databaseUrl,
    databasePoolMode,
    databaseDirectUrl,
    databaseReadUrl,
    readReplicaMaxLagSeconds: read('READ_REPLICA_MAX_LAG_SECONDS', 10, integer(0, 3600)),
    readReplicaWaitMs: read('READ_REPLICA_WAIT_MS', 200, integer(0, 10_000)),
    databaseClusters,
    databasePlacement,
    dataDir: path.resolve(env.CARTAGE_DATA_DIR?.trim() || 'data'),
    host: env.HOST?.trim() || '0.0.0.0',
    corePort,
    globalPort: read('GLOBAL_PORT', 8081, integer(0, 65535)),
    logLevel: (LOG_LEVELS as readonly string[]).includes(logLevelRaw)
      ? (logLevelRaw as Config['logLevel'])
      : 'info',
    bodyLimit: read('BODY_LIMIT_BYTES', 1_048_576, integer(1024, 104_857_600)),
    dbPoolSize: read('DB_POOL_SIZE', 10, integer(1, 200)),
    embeddedSharedBuffersMb: read(
      'EMBEDDED_SHARED_BUFFERS_MB',
      DEFAULT_EMBEDDED_SHARED_BUFFERS_MB,
      integer(1, 4096),
    ),
    sqlConsoleConnections: read('SQL_CONSOLE_CONNECTIONS', 2, integer(1, 50)),
    sqlConsoleConnectionsPerOrganisation: read('SQL_CONSOLE_CONNECTIONS_PER_ORGANISATION', 1, integer(1, 50)),
    sqlConsoleTimeoutMs: read('SQL_CONSOLE_TIMEOUT_MS', 5_000, integer(100, 600_000)),
    sqlConsoleEmbeddedTimeLimitMs: read('SQL_CONSOLE_EMBEDDED_TIME_LIMIT_MS', 1_500, integer(100, 60_000)),
    jwtPrivateKey: env.JWT_PRIVATE_KEY?.trim().replace(/\\n/g, '\n') || undefined,
    accessTokenTtlSeconds: read('ACCESS_TOKEN_TTL_SECONDS', 900, integer(30, 86_400)),
    refreshTokenTtlSeconds: read('REFRESH_TOKEN_TTL_SECONDS', 1_209_600, integer(300, 31_536_000)),
    cookieSecure: read('COOKIE_SECURE', true, boolean),
    // The console (served by the Core API) is where the links in emails land.
    publicAppUrl: read('PUBLIC_APP_URL', `http://localhost:${corePort}`, url).replace(/\/+$/, ''),
    corePublicUrl: read('CORE_PUBLIC_URL', '', baseUrl) || undefined,
    globalPublicUrl: read('GLOBAL_PUBLIC_URL', '', baseUrl) || undefined,
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    mailFrom: env.MAIL_FROM?.trim() || 'Cartage <no-reply@cartage.local>',
    trustProxy: read<boolean | number | string>('TRUST_PROXY', false, (raw) => {
      if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true'
      if (/^\d{1,2}$/.test(raw)) return Number(raw)
      return /^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(raw)
        ? raw
        : 'problem: must be true, false, a hop count, or comma-separated addresses/CIDRs'
    }),
    rateLimitPerIp: read('RATE_LIMIT_PER_IP', 60, integer(1, 1_000_000)),
    rateLimitPerAccount: read('RATE_LIMIT_PER_ACCOUNT', 10, integer(1, 1_000_000)),
    registrationsPerHour: read('REGISTRATIONS_PER_HOUR', 500, integer(1, 10_000_000)),
    mailsPerHour: read('MAILS_PER_HOUR', 2_000, integer(1, 10_000_000)),
    fileMaxBytes: read('FILE_MAX_BYTES', 26_214_400, integer(1, 5_368_709_120)),
    filesDir: env.FILES_DIR?.trim() ? path.resolve(env.FILES_DIR.trim()) : undefined,
    s3: undefined,
    corsOrigins: read<string[]>('CORS_ORIGINS', [], (raw) => {
      const origins = raw
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter((origin) => origin !== '')
      const bad = origins.find((origin) => !/^https?:\/\/[^/\s]+$/.test(origin))
      return bad === undefined ? origins : `"${bad}" is not an origin such as https://app.example.com`
    }),
    metricsEnabled: read('METRICS_ENABLED', false, boolean),
    metricsPort: read<number | undefined>('METRICS_PORT', undefined, integer(0, 65535)),
    shutdownTimeoutMs: read('SHUTDOWN_TIMEOUT_MS', 15_000, integer(100, 600_000)),
    carrierCredentialsKey: aesKey('CARRIER_CREDENTIALS_KEY', env.CARRIER_CREDENTIALS_KEY, problems),
    geocoderUrl: read('GEOCODER_URL', '', url).replace(/\/+$/, '') || undefined,
    geocoderTimeoutMs: read('GEOCODER_TIMEOUT_MS', 2_000, integer(100, 30_000)),
    routingOsrmUrl: read('ROUTING_OSRM_URL', '', url).replace(/\/+$/, '') || undefined,
    routingTimeoutMs: read('ROUTING_TIMEOUT_MS', 10_000, integer(100, 120_000)),
    planningSpeedKmh: read('PLANNING_SPEED_KMH', 30, integer(1, 300)),
    webhooksAllowPrivateTargets: read('WEBHOOKS_ALLOW_PRIVATE_TARGETS', false, boolean),
    webhooksPollIntervalMs: read('WEBHOOKS_POLL_INTERVAL_MS', 1_000, integer(50, 600_000)),
    webhooksTimeoutMs: read('WEBHOOKS_TIMEOUT_MS', 10_000, integer(100, 60_000)),
    webhooksSecretsKey: aesKey('WEBHOOKS_SECRETS_KEY', env.WEBHOOKS_SECRETS_KEY, problems),
  }
  const s3Bucket = env.S3_BUCKET?.trim() || undefined
  if (s3Bucket !== undefined) {
    const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined
    const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined
    // Names only: a secret's value never goes into a message.
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
      problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither')
    }
    const endpoint = env.S3_ENDPOINT?.trim() || undefined
    config.s3 = {
      bucket: s3Bucket,
      endpoint: endpoint === undefined ? undefined : read('S3_ENDPOINT', '', url),
      region: env.S3_REGION?.trim() || 'us-east-1',
      accessKeyId,
      secretAccessKey,
      forcePathStyle: read('S3_FORCE_PATH_STYLE', false, boolean),
    }
  }
  if (config.jwtPrivateKey !== undefined && !/-----BEGIN PRIVATE KEY-----/.test(config.jwtPrivateKey)) {
    problems.push(
      'JWT_PRIVATE_KEY: must be an Ed25519 private key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)',
    )
  }
  if (config.smtpUrl !== undefined && !/^smtps?:\/\//.test(config.smtpUrl)) {
    problems.push('SMTP_URL: must start with smtp:// or smtps://')
  }
  if (config.corePort !== 0 && config.corePort === config.globalPort) {
    problems.push('CORE_PORT and GLOBAL_PORT: must differ')
  }
  if (config.metricsPort !== undefined && [config.corePort, config.globalPort].includes(config.metricsPort)) {
    if (config.metricsPort !== 0) problems.push('METRICS_PORT: must differ from CORE_PORT and GLOBAL_PORT')
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}

/** An AES-256 key setting; a bad value is reported without echoing it (it is a secret). */
function aesKey(name: string, raw: string | undefined, problems: string[]): Buffer | undefined {
  const text = raw?.trim()
  if (!text) return undefined
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64')
  if (key.length === 32) return key
  problems.push(`${name}: must be 32 bytes, as 64 hex characters or base64`)
  return undefined
}
