import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpApp } from '../src/http/kernel.js'
import { startTestContext, type TestContext, uniqueEmail } from './harness.js'
import { shellBlocks } from './markdown.js'
import { pdfText, squeezed } from './pdf-text.js'
import { PROCESS_TEST_TIMEOUT_MS } from './server-process.js'

// docs/api-guide.md cannot rot: its `sh` blocks are run in order, as one bash script with
// `set -euo pipefail`, against both APIs listening on free ports over a fresh database.

const GUIDE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'api-guide.md')

let ctx: TestContext
// The script's temporary files (mktemp: the cookie jar, the downloaded documents) land here, read and removed after.
let scratch: string
let endpoints: { CORE: string; GLOBAL: string }
const urlOf = async (app: HttpApp) => {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (typeof address !== 'object' || !address) throw new Error('not listening on TCP')
  return `http://127.0.0.1:${address.port}`
}

beforeAll(async () => {
  // Plain http on 127.0.0.1: curl keeps a Secure cookie for https (and localhost) only.
  ctx = await startTestContext({ COOKIE_SECURE: 'false' })
  endpoints = { CORE: await urlOf(ctx.core), GLOBAL: await urlOf(ctx.global) }
})
afterAll(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true })
  await ctx?.close()
})

function runBash(script: string, env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { env: { ...process.env, ...env }, timeout: 240_000, maxBuffer: 10_000_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

describe('docs/api-guide.md', () => {
  it('has its examples in sh blocks', () => {
    const blocks = shellBlocks(readFileSync(GUIDE, 'utf8'))
    expect(blocks.length).toBeGreaterThanOrEqual(10)
    expect(blocks.join('\n')).toContain('x-dispatch-api-key')
  })

  it(
    'every example answers as the guide says, with both credential kinds',
    async () => {
      const blocks = shellBlocks(readFileSync(GUIDE, 'utf8'))
      const script = [
        'set -euo pipefail',
        ...blocks.map((block, index) => `echo '--- block ${index + 1}' >&2\n${block}`),
        "echo '--- done' >&2",
      ].join('\n')
      scratch = mkdtempSync(path.join(os.tmpdir(), 'cartage-guide-'))
      const env = { ...endpoints, EMAIL: uniqueEmail('guide'), TMPDIR: scratch }
      const { code, stdout, stderr } = await runBash(script, env)
      const where = `${stderr
        .split('\n')
        .filter((line) => line.startsWith('--- block'))
        .pop()}\n${stderr}\n${stdout}`
      expect(code, where).toBe(0)
      expect(stderr).toContain('--- done')
      const lines = stdout.split('\n')
      expect(lines, stdout).toContain('Harbour Traders') // the paged, filtered, ordered list
      expect(lines).toEqual(expect.arrayContaining(['CUS-000001', 'CUS-000002', 'CUS-000003', 'OK', 'true']))
      expect(stdout).toMatch(/"field":"name"/) // the 400 names the field
      expect(stdout).toMatch(/"field":"password"/)
      expect(lines).toContain('unsupported_media_type') // text/plain: 415
      expect(lines).toContain('api_key_not_allowed') // a key creating a key
      expect(stdout).toMatch(/"Customers":1,/) // scopes {"3": 1} read by name
      expect(lines).toEqual(expect.arrayContaining(['2026-11-24', '$fliter'])) // a plan's date-time, an unknown parameter
      expect(stdout).toMatch(/"onHand":120,"averageCost":5.125,"value":615/) // the bulk stock movements
      expect(stdout).toMatch(/"field":"movements.0.quantity","message":"short by 430 on 2026-01-06/)
      expect(lines).toEqual(expect.arrayContaining(['SUP-000001', '7'])) // the supplier, its lead time
      expect(stdout).toMatch(/"productSku":"BOLT-1".*"suggestedQuantity":500,.*"estimatedCost":175}/)
      // The purchase order: its total, submitted, half received, the stock, then an over-receipt refused.
      expect(lines).toEqual(expect.arrayContaining(['450', 'Submitted', 'PartiallyReceived', '500']))
      expect(stdout).toMatch(
        /"field":"lines.0.quantity","message":"would bring the line to 1001 received of 1000 ordered/,
      )
      // Reserving stock: 3 of 5 valves held, 4 more refused then backordered, the figures and the promise.
      expect(lines).toEqual(expect.arrayContaining(['Confirmed', 'insufficient_stock']))
      expect(lines).toContain('[{"field":"lines.0.quantity","message":"short by 2 (2 available)"}]')
      expect(stdout).toMatch(/"ordered":4,"reserved":2,"backordered":2,"shipped":0}/)
      expect(stdout).toMatch(
        /"onHand":5,"reserved":5,"available":0,"backordered":2,"incoming":\[{"source":"PurchaseOrder","reference":"PO-000002","date":"2028-01-15","quantity":10}]/,
      )
      expect(stdout).toMatch(
        /"quantity":8,"date":"2028-02-01","promisable":true,"earliestDate":"2028-01-15","free":-2}/,
      )
      // Shipment lines: the weight, a dispatch refused short, the pick list, then dispatched and the orders fulfilled.
      expect(stdout).toMatch(/^6\n\[{"field":"SHP-000002.lines.0.quantity","message":"short by 2 on /m)
      expect(stdout).toMatch(
        /"sku":"VALVE-1","name":"Ball valve","unitOfMeasure":"Each","quantity":5,"stops":2}]\n/,
      )
      expect(stdout).toContain('\nBox 1\nDispatched\nFulfilled\nPartiallyFulfilled\n20\n')
      // Delivery with proof, then the public tracking page of the delivered drop.
      expect(stdout).toContain(
        [
          'Delivered',
          'Failed',
          'Arrived',
          'Delivered',
          'Site office',
          'site@quay.example',
          'Delivered',
          'Expected delivery: 2028-03-10',
          'Order received',
          'Out for delivery',
          'Driver arrived',
          'Delivered',
        ].join('\n'),
      )
      // A return: requested, more than is left refused, received at the cost it left with, credited.
      expect(lines).toEqual(
        expect.arrayContaining(['Delivered', 'RMA-000001', '24', 'invalid_status_transition']),
      )
      expect(stdout).toMatch(
        /"field":"lines.0.quantity","message":"at most 8 can be returned \(10 delivered, 2 returned already\)"/,
      )
      expect(stdout).toMatch(/"quantity":2,.*"unitCost":5.125,/)
      expect(lines).toEqual(expect.arrayContaining(['order.created', 'whsec_', 'Refused'])) // webhooks
      expect(stdout).toMatch(/"field":"url"/)
      expect(stdout).toMatch(/^idempotent-replayed: true\r?$/im) // a retry with the same Idempotency-Key
      expect(lines).toContain('Idempotency-Key') // the same key for another body: 409 naming the header
      expect(lines).toContain('{"before":"Retry Stores","after":"Retry Stores Ltd"}') // the audit log
      // Autobatch on the engine: the evening stop left out for the shift, Dock Road first at its window's start;
      // re-optimised on the way: Kloof Street (arrived at) kept first, Dock Road next at 09:30; a Cancelled plan refused.
      expect(lines).toEqual(
        expect.arrayContaining([
          'autobatch_outside_shift',
          'Delivery plan re-optimised',
          'plan_not_reoptimisable',
        ]),
      )
      // Documents: the delivery note and the route sheet are PDFs.
      expect(stdout).toContain('\napplication/pdf\n%PDF-\n%PDF-\n')
      const [docs] = readdirSync(scratch).filter((name) =>
        existsSync(path.join(scratch, name, 'route-sheet.pdf')),
      )
      expect(docs, 'the documents the guide downloads').toBeDefined()
      if (existsSync('/usr/bin/pdftotext')) {
        const read = async (name: string) =>
          squeezed(await pdfText(readFileSync(path.join(scratch, `${docs}`, name))))
        const note = await read('delivery-note.pdf')
        expect(note).toEqual(
          expect.arrayContaining(['Delivery note SHP-000001', 'Status: Delivered', 'Signature']),
        )
        expect(
          note.some((line) => /^Site office \d{4}-\d\d-\d\d \d\d:\d\d UTC -33\.9001, 18\.4202 0$/.test(line)),
        ).toBe(true)
        const sheet = await read('route-sheet.pdf')
        // The shipments were saved without a weight: they weigh what their lines carry.
        expect(sheet).toEqual(expect.arrayContaining(['Date: 2028-03-10', 'Stops: 2', 'Total weight: 10 kg']))
        expect(sheet.filter((line) => /^\d+ SHP-/.test(line))).toEqual([
          '1 SHP-000001 Quay Builders 1 Quay Road 6 kg',
          '2 SHP-000002 Quay Builders 1 Quay Road 4 kg',
        ])
      }
      const planned = lines.indexOf('Dock Road')
      expect(planned).toBeGreaterThan(-1)
      expect(lines.slice(planned, planned + 5)).toEqual([
        'Dock Road',
        '2028-03-15T09:30:00.000Z',
        'Kloof Street',
        '2028-03-15T09:30:00.000Z',
        'Delivery plan re-optimised',
      ])
    },
    PROCESS_TEST_TIMEOUT_MS,
  )

  it('would fail if an example broke: a 4xx stops the script', async () => {
    const broken =
      'set -euo pipefail\ncurl -sS --fail-with-body "$CORE/api/v1/Customers" >/dev/null\necho reached'
    const { code, stdout } = await runBash(broken, endpoints)
    expect(code).not.toBe(0)
    expect(stdout).not.toContain('reached')
  })
})
