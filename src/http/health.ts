import { Type } from '@sinclair/typebox'
import { CompiledQuery, sql } from 'kysely'
import type { Database } from '../db/database.js'
import { databaseFault } from '../db/faults.js'
import { migrationStatus } from '../db/migrator.js'
import { storageState } from '../db/storage-state.js'
import type { ApiFlavor } from './envelopes.js'
import { errorResponses } from './error-responses.js'
import type { HttpApp } from './kernel.js'

const HealthSchema = Type.Object({
  status: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
})

/** The probe's statement, compiled once: readiness is polled often. */
const PING = CompiledQuery.raw('SELECT 1')

export function registerHealthRoutes(app: HttpApp, database: Database, flavor: ApiFlavor) {
  // Once migrated, a process stays migrated: later probes only check the database answers.
  let migrated = false
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['Health'],
        operationId: 'Live',
        summary: 'The process is up',
        description: 'Liveness probe: answers 200 while the process runs, without touching the database.',
        security: [],
        response: { 200: HealthSchema, ...errorResponses(flavor) },
      },
    },
    async () => ({ status: 'ok' }),
  )
  app.get(
    '/health/ready',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['Health'],
        operationId: 'Ready',
        summary: 'The database is reachable and migrated',
        description:
          'Readiness probe: 200 once the database answers and every migration has run, 503 (with the failing check) otherwise. ' +
          'After a write was refused for a full disk, 503 with `storage: full` until a small write succeeds again.',
        security: [],
        response: { 200: HealthSchema, ...errorResponses(flavor), 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const storageFull = () =>
        reply
          .code(503)
          .send({ status: 'unavailable', checks: { database: 'ok', migrations: 'ok', storage: 'full' } })
      try {
        if (!migrated) {
          const status = await migrationStatus(database)
          migrated = status.globalPending.length === 0 && status.tenantSchemasBehind === 0
          if (!migrated)
            return reply
              .code(503)
              .send({ status: 'unavailable', checks: { database: 'ok', migrations: 'pending' } })
        } else if (!storageState.full) {
          await database.db.executeQuery(PING)
        }
        if (storageState.full) {
          if (database.kind === 'embedded') {
            // The data directory's free space says when it is over.
            if (storageState.roomAgain() === false) return storageFull()
          } else {
            // PostgreSQL's disk is not ours to see: a durable write of a few bytes is the probe.
            await sql`INSERT INTO global.rate_limits AS r (key, window_start, hits) VALUES ('health:storage-probe', now(), 1)
              ON CONFLICT (key) DO UPDATE SET window_start = now(), hits = 1`.execute(database.db)
          }
          storageState.reportWritable()
        }
        return { status: 'ok', checks: { database: 'ok', migrations: 'ok' } }
      } catch (error) {
        if (databaseFault(error) === 'storage_full') return storageFull()
        return reply.code(503).send({ status: 'unavailable', checks: { database: 'unreachable' } })
      }
    },
  )
}
