import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env)
    return []
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems]
    throw error
  }
}

describe('browser and operator settings', () => {
  it('allow no origin, serve no metrics, and use no metrics port by default', () => {
    const config = loadConfig({})
    expect(config.corsOrigins).toEqual([])
    expect(config.metricsEnabled).toBe(false)
    expect(config.metricsPort).toBeUndefined()
  })

  it('read CORS_ORIGINS as a comma-separated list of origins, trailing slashes dropped', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com/, http://localhost:5173' }).corsOrigins).toEqual(
      ['https://a.example.com', 'http://localhost:5173'],
    )
  })

  it('refuse an origin with a path, a wildcard or no scheme, naming the variable', () => {
    for (const bad of ['https://a.example.com/app', '*', 'a.example.com']) {
      expect(problemsOf({ CORS_ORIGINS: bad })[0]).toMatch(/^CORS_ORIGINS=/)
    }
  })

  it('read METRICS_ENABLED and METRICS_PORT, refusing a port the APIs use', () => {
    const config = loadConfig({ METRICS_ENABLED: 'true', METRICS_PORT: '9464' })
    expect(config.metricsEnabled).toBe(true)
    expect(config.metricsPort).toBe(9464)
    expect(problemsOf({ METRICS_ENABLED: 'maybe' })[0]).toMatch(/^METRICS_ENABLED=/)
    expect(problemsOf({ METRICS_PORT: '8080' })[0]).toMatch(/^METRICS_PORT: must differ/)
  })

  it('read CORE_PUBLIC_URL and GLOBAL_PUBLIC_URL (absent by default), refusing what is no base URL', () => {
    expect(loadConfig({}).corePublicUrl).toBeUndefined()
    const config = loadConfig({
      CORE_PUBLIC_URL: 'https://api.example.com/core/',
      GLOBAL_PUBLIC_URL: 'http://id:8081',
    })
    expect([config.corePublicUrl, config.globalPublicUrl]).toEqual([
      'https://api.example.com/core',
      'http://id:8081',
    ])
    for (const bad of [
      'api.example.com',
      'ftp://api.example.com',
      'https://api.example.com/?a=1',
      'https://a.example.com/#x',
    ])
      expect(problemsOf({ CORE_PUBLIC_URL: bad })[0]).toMatch(/^CORE_PUBLIC_URL=/)
  })

  it('read EMBEDDED_SHARED_BUFFERS_MB (default 16) and refuse what is not 1 to 4096', () => {
    expect(loadConfig({}).embeddedSharedBuffersMb).toBe(16)
    expect(loadConfig({ EMBEDDED_SHARED_BUFFERS_MB: '64' }).embeddedSharedBuffersMb).toBe(64)
    for (const bad of ['0', '4097', '16MB', '-1'])
      expect(problemsOf({ EMBEDDED_SHARED_BUFFERS_MB: bad })[0]).toMatch(/^EMBEDDED_SHARED_BUFFERS_MB=/)
  })
})

describe('a connection pooler', () => {
  const pooled = { DATABASE_URL: 'postgres://u@pooler:6432/cartage' }

  it('assume no transaction pooler by default (session state is kept)', () => {
    const config = loadConfig(pooled)
    expect(config.databasePoolMode).toBe('session')
    expect(config.databaseDirectUrl).toBeUndefined()
  })

  it('read DATABASE_POOL_MODE=transaction with DATABASE_DIRECT_URL, and refuse it without', () => {
    const config = loadConfig({
      ...pooled,
      DATABASE_POOL_MODE: 'Transaction',
      DATABASE_DIRECT_URL: 'postgres://u@db:5432/cartage',
    })
    expect(config.databasePoolMode).toBe('transaction')
    expect(config.databaseDirectUrl).toBe('postgres://u@db:5432/cartage')
    expect(problemsOf({ ...pooled, DATABASE_POOL_MODE: 'transaction' })[0]).toMatch(
      /^DATABASE_POOL_MODE=transaction: needs .*DATABASE_DIRECT_URL/,
    )
    expect(
      problemsOf({ DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: 'postgres://db/x' })[0],
    ).toMatch(/needs DATABASE_URL/)
    expect(problemsOf({ ...pooled, DATABASE_POOL_MODE: 'statement' })[0]).toMatch(/^DATABASE_POOL_MODE=/)
    expect(problemsOf({ ...pooled, DATABASE_DIRECT_URL: 'mysql://db' })[0]).toMatch(/^DATABASE_DIRECT_URL:/)
  })

  it('reads DATABASE_READ_URL and the replica limits, and refuses a replica without DATABASE_URL', () => {
    const config = loadConfig({ ...pooled, DATABASE_READ_URL: 'postgres://u@replica:5433/cartage' })
    expect(config.databaseReadUrl).toBe('postgres://u@replica:5433/cartage')
    expect(config.readReplicaMaxLagSeconds).toBe(10)
    expect(config.readReplicaWaitMs).toBe(200)
    expect(loadConfig({}).databaseReadUrl).toBeUndefined()
    expect(problemsOf({ DATABASE_READ_URL: 'postgres://u@replica/x' })[0]).toMatch(
      /^DATABASE_READ_URL: needs DATABASE_URL/,
    )
    expect(problemsOf({ ...pooled, DATABASE_READ_URL: 'mysql://replica' })[0]).toMatch(/^DATABASE_READ_URL:/)
    expect(problemsOf({ ...pooled, READ_REPLICA_MAX_LAG_SECONDS: '-1' })[0]).toMatch(
      /^READ_REPLICA_MAX_LAG_SECONDS/,
    )
    expect(problemsOf({ ...pooled, READ_REPLICA_WAIT_MS: 'soon' })[0]).toMatch(/^READ_REPLICA_WAIT_MS/)
  })
})
