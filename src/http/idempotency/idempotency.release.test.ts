import { randomUUID } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { credentialHeaders, ownerSession, useTestContext } from '../../../test/harness.js'
import { buildApi } from '../../apps/build-app.js'
import { loadConfig } from '../../config.js'
import { defineModule } from '../../platform/module.js'
import { SingleResult, single } from '../envelopes.js'
import type { HttpApp } from '../kernel.js'
import { operation } from '../operation.js'
import { CORE_SECURITY_SCHEMES } from '../security-schemes.js'

const ctx = useTestContext()

/** A route that fails (500) on its first call and answers the number of its calls afterwards. */
let calls = 0
const flakyModule = defineModule({
  name: 'test/flaky',
  core: {
    tags: [{ name: 'Flaky', description: 'A route that fails once' }],
    routes: (app) =>
      app.post(
        '/api/v1/flaky',
        operation(['Customers', 'Modify'], {
          operationId: 'Flaky',
          summary: 'Fails on its first call',
          tags: ['Flaky'],
          body: Type.Object({ label: Type.String() }),
          response: SingleResult('core', Type.Integer()),
          errors: [400],
        }),
        async () => {
          calls++
          if (calls === 1) throw new Error('the first call fails')
          return single('core', calls)
        },
      ),
  },
})

let app: HttpApp
beforeAll(async () => {
  app = await buildApi(
    'core',
    { title: 'Flaky', description: 'A test API', securitySchemes: CORE_SECURITY_SCHEMES },
    [flakyModule],
    { config: loadConfig({}), database: ctx.database, services: ctx.services },
    false,
  )
})
afterAll(() => app?.close())

describe('Idempotency-Key after a server error', () => {
  it('releases the key on a 5xx, so the retry runs; its answer is then kept', async () => {
    const { credential } = await ownerSession(ctx)
    const key = randomUUID()
    const post = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/flaky',
        headers: { ...credentialHeaders(credential), 'idempotency-key': key },
        payload: { label: 'x' },
      })
    expect((await post()).statusCode).toBe(500)
    const retry = await post()
    expect(retry.statusCode).toBe(200)
    expect(retry.headers['idempotent-replayed']).toBeUndefined()
    expect(retry.json().data).toBe(2)
    const again = await post()
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().data).toBe(2)
    expect(calls).toBe(2)
  })
})
