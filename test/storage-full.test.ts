import { cpSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { registrationBody, uniqueEmail } from './harness.js'
import {
  PROCESS_TEST_TIMEOUT_MS,
  serverEnv,
  startServerProcess,
  stopServerProcess,
} from './server-process.js'
import { mountTmpfs, unmount } from './tmpfs.js'

const onPostgres = process.env.CARTAGE_TEST_DATABASE === 'postgres'
const asRoot = process.getuid?.() === 0

// The embedded database on a small tmpfs of its own, filled up under a running server and freed.
// Mounting needs root (as the gate runs); PostgreSQL's disk is the machine's, not the test's to fill.
describe.runIf(!onPostgres && asRoot)('a full disk (embedded database)', () => {
  const mountDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-full-disk-'))
  afterAll(async () => {
    await unmount(mountDir)
    rmSync(mountDir, { recursive: true, force: true })
  })

  it(
    'answers 507 storage_full, says so in readiness and metrics, logs it once, and recovers when space is freed',
    async () => {
      await mountTmpfs(mountDir, 256)
      const dataDir = path.join(mountDir, 'data')
      // On the tmpfs, so not useServerDataDir's: a copy of the same migrated template.
      cpSync(inject('templateDataDir'), dataDir, { recursive: true })
      const server = await startServerProcess(
        // Metrics on: its gauge of a full disk is read below.
        serverEnv({ dataDir, vars: { LOG_LEVEL: 'info', METRICS_ENABLED: 'true' } }),
      )
      try {
        const org = registrationBody({ email: uniqueEmail('full') })
        const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
          fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify(body),
          })
        const registered = (await (await post(`${server.global}/api/organizations`, org)).json()) as {
          data: { id: string }
        }
        const login = (await (
          await post(`${server.global}/api/auth/login`, {
            email: org.user.email,
            password: org.user.password,
          })
        ).json()) as { data: { session: { accessToken: string } } }
        const headers = {
          authorization: `Bearer ${login.data.session.accessToken}`,
          'x-business-id': registered.data.id,
        }
        const createCustomer = (i: number) =>
          post(`${server.core}/api/v1/customers`, { name: `Customer ${i} ${'x'.repeat(180)}` }, headers)
        expect((await createCustomer(0)).status).toBe(200)

        // Fill the disk, leaving nothing.
        const filler = path.join(mountDir, 'filler')
        const { bavail, bsize } = statfsSync(mountDir)
        writeFileSync(filler, Buffer.alloc(Number(bavail) * Number(bsize)))
        let refused: Response | undefined
        for (let i = 1; i <= 400 && !refused; i++) {
          const response = await createCustomer(i)
          if (response.status !== 200) refused = response
        }
        if (!refused) throw new Error('400 writes on a full disk were all accepted')
        expect(refused.status, await refused.clone().text()).toBe(507)
        expect(((await refused.json()) as { code: string }).code).toBe('storage_full')
        // A second refusal is not a second notice in the log.
        expect((await createCustomer(999)).status).toBe(507)
        expect(server.output().match(/storage is full/g)?.length).toBe(1)
        const ready = await fetch(`${server.core}/health/ready`)
        expect(ready.status).toBe(503)
        expect(((await ready.json()) as { checks: Record<string, string> }).checks.storage).toBe('full')
        expect(await (await fetch(`${server.core}/metrics`)).text()).toMatch(/^cartage_storage_full 1$/m)

        rmSync(filler)
        expect((await fetch(`${server.core}/health/ready`)).status).toBe(200)
        expect(await (await fetch(`${server.core}/metrics`)).text()).toMatch(/^cartage_storage_full 0$/m)
        expect((await createCustomer(1000)).status).toBe(200)
      } finally {
        await stopServerProcess(server)
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})
