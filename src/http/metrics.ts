import { createServer, type Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Database } from '../db/database.js'
import type { DatabasePool } from '../db/lane-pool.js'
import type { ReadReplica } from '../db/read-replica.js'
import { storageState } from '../db/storage-state.js'
import type { ApiFlavor } from './envelopes.js'

/**
 * Prometheus metrics of the process (both APIs share one registry): request counts and latency
 * by route pattern and status, database pool use, and Node's defaults (event-loop lag, memory,
 * CPU, GC). Off unless METRICS_ENABLED=true; with METRICS_PORT they are served only there.
 */
interface ProcessMetrics {
  registry: Registry
  requests: Counter<'api' | 'method' | 'route' | 'status'>
  duration: Histogram<'api' | 'method' | 'route' | 'status'>
  pools: Set<DatabasePool>
  replicas: Set<ReadReplica>
}

let metrics: ProcessMetrics | undefined

function processMetrics(): ProcessMetrics {
  if (metrics) return metrics
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 })
  const labelNames = ['api', 'method', 'route', 'status'] as const
  const pools = new Set<DatabasePool>()
  const poolGauge = (name: string, help: string, read: (pool: DatabasePool) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set([...pools].reduce((sum, pool) => sum + read(pool), 0))
      },
    })
  poolGauge('cartage_db_pool_connections', 'Open database connections in the pool', (p) => p.totalCount)
  poolGauge('cartage_db_pool_idle_connections', 'Idle database connections in the pool', (p) => p.idleCount)
  poolGauge(
    'cartage_db_pool_waiting_requests',
    'Queries waiting for a free connection',
    (p) => p.waitingCount,
  )
  // The read replica (DATABASE_READ_URL), when there is one: whether reads go there, and its lag.
  const replicas = new Set<ReadReplica>()
  const replicaGauge = (
    name: string,
    help: string,
    read: (replica: ReadReplica) => number | null,
    none = Number.NaN,
  ) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(none)
        for (const replica of replicas) this.set(read(replica) ?? Number.NaN)
      },
    })
  replicaGauge(
    'cartage_read_replica_available',
    '1 while reads may go to the read replica (DATABASE_READ_URL), else 0',
    (r) => (r.status().available ? 1 : 0),
    0,
  )
  replicaGauge(
    'cartage_read_replica_lag_seconds',
    'Replay lag of the read replica at its last check (NaN when it could not be read)',
    (r) => r.status().lagSeconds,
  )
  replicaGauge(
    'cartage_read_replica_lag_bytes',
    'WAL the read replica had still to replay at its last check (NaN when it could not be read)',
    (r) => r.status().lagBytes,
  )
  new Gauge({
    name: 'cartage_read_replica_reads',
    help: 'Heavy reads (SQL console, dashboard) since start, by where they ran: replica or primary',
    labelNames: ['served_by'] as const,
    registers: [registry],
    collect() {
      for (const replica of replicas) {
        const { reads } = replica.status()
        this.set({ served_by: 'replica' }, reads.replica)
        this.set({ served_by: 'primary' }, reads.primary)
      }
    },
  })
  new Gauge({
    name: 'cartage_storage_full',
    help: '1 after a write was refused for a full disk, until the readiness probe writes again',
    registers: [registry],
    collect() {
      this.set(storageState.full ? 1 : 0)
    },
  })
  metrics = {
    registry,
    pools,
    replicas,
    requests: new Counter({
      name: 'cartage_http_requests_total',
      help: 'HTTP requests answered, by API, method, route pattern and status',
      labelNames,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'cartage_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by API, method, route pattern and status',
      labelNames,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  }
  return metrics
}

export interface MetricsOptions {
  metricsEnabled?: boolean
  metricsPort?: number | undefined
}

/** Records every request of `app`; serves `GET /metrics` on it unless a separate port is set. */
export function installMetrics(
  app: FastifyInstance,
  flavor: ApiFlavor,
  database: Pick<Database, 'pool' | 'readReplica'>,
  options: MetricsOptions | undefined,
) {
  if (!options?.metricsEnabled) return
  const { registry, requests, duration, pools, replicas } = processMetrics()
  const { pool, readReplica } = database
  pools.add(pool)
  if (readReplica) replicas.add(readReplica)
  app.addHook('onClose', async () => {
    pools.delete(pool)
    if (readReplica) replicas.delete(readReplica)
  })
  app.addHook('onResponse', async (request, reply) => {
    // The pattern, never the raw URL: ids in paths (and unmatched URLs) would grow labels without bound.
    const route = request.routeOptions.url ?? 'unmatched'
    if (route === '/metrics') return
    const labels = { api: flavor, method: request.method, route, status: String(reply.statusCode) }
    requests.inc(labels)
    duration.observe(labels, reply.elapsedTime / 1000)
  })
  if (options.metricsPort !== undefined) return
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.header('content-type', registry.contentType)
    return registry.metrics()
  })
}

/** The metrics alone on their own port (METRICS_PORT), for a scraper on a private network. */
export async function startMetricsServer(host: string, port: number): Promise<Server> {
  const { registry } = processMetrics()
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return server
}
