import { type Static, Type } from '@sinclair/typebox'
import { sql } from 'kysely'
import { newId } from '../../src/db/ids.js'
import { businessAuthOf } from '../../src/http/auth-hook.js'
import { SingleResult, single } from '../../src/http/envelopes.js'
import { operation } from '../../src/http/operation.js'
import { Uuid } from '../../src/http/schema-helpers.js'
import { defineEvents } from '../../src/platform/domain-events.js'
import { defineModule } from '../../src/platform/module.js'

/**
 * A module that exists only for test/throwaway-module.test.ts: everything it brings (a table, a
 * route, a console view, an event with its notification and webhook type, a periodic task) is
 * declared here, and nothing outside this folder names it.
 */

const CrateSealedPayload = Type.Object(
  { crateId: Uuid(), label: Type.String() },
  { title: 'CrateSealedPayload' },
)

declare module '../../src/platform/domain-events.js' {
  interface DomainEventPayloads {
    CrateSealed: Static<typeof CrateSealedPayload>
  }
}

const CrateResponse = Type.Object({ id: Uuid(), label: Type.String() }, { title: 'CrateResponse' })

/** The rounds the periodic task has run, and who waits for the next one. */
export const crateRounds = { count: 0, waiting: [] as (() => void)[] }

export const cratesModule = defineModule({
  name: 'warehouse/crates',
  core: {
    tags: [{ name: 'Crates', description: 'Crates (a module of the tests)' }],
    routes(app, { database, services }) {
      app.post(
        '/api/v1/crates',
        operation(['Orders', 'Modify'], {
          operationId: 'SealCrate',
          summary: 'Seal a crate',
          tags: ['Crates'],
          body: Type.Object({ label: Type.String({ minLength: 1, maxLength: 100 }) }),
          response: SingleResult('core', CrateResponse),
          errors: [400],
        }),
        async (request) => {
          const auth = businessAuthOf(request)
          const crate = { id: newId(), label: request.body.label }
          await database.db.transaction().execute(async (trx) => {
            await sql`INSERT INTO ${sql.table(`${auth.schemaName}.crates`)} (id, business_id, label)
              VALUES (${crate.id}, ${auth.businessId}, ${crate.label})`.execute(trx)
            await services.events.publish(trx, auth.schemaName, {
              type: 'CrateSealed',
              businessId: auth.businessId,
              userId: auth.userId,
              payload: { crateId: crate.id, label: crate.label },
            })
          })
          return single('core', crate)
        },
      )
    },
  },
  migrations: {
    tenant: [
      {
        name: '29990101000000-create-crates',
        sql: `CREATE TABLE crates (
          id uuid PRIMARY KEY, business_id uuid NOT NULL, label text NOT NULL,
          date_created timestamptz NOT NULL DEFAULT now());
          CREATE TABLE crate_seals_seen (business_id uuid PRIMARY KEY, seen integer NOT NULL);`,
      },
    ],
  },
  unauditedTables: ['crate_seals_seen'],
  consoleViews: { crates: { source: 'crates', filter: 'TRUE', columns: ['id', 'label'] } },
  events: defineEvents({
    CrateSealed: {
      payload: CrateSealedPayload,
      description: 'A crate was sealed.',
      notification: {
        content: ({ payload }) => ({
          title: 'Crate sealed',
          message: `Crate ${payload.label} was sealed.`,
          level: 'Info',
          priority: 'Low',
          entityType: 'None',
          entityId: payload.crateId,
          actionLink: null,
        }),
      },
      webhook: { type: 'crate.sealed', description: 'A crate was sealed.', resourceField: 'crateId' },
    },
  }),
  periodicTasks: [
    {
      name: 'crate round',
      intervalMs: 60_000,
      async round() {
        crateRounds.count++
        for (const resolve of crateRounds.waiting.splice(0)) resolve()
      },
    },
  ],
})
