import os from 'node:os'
import path from 'node:path'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpApp } from '../../src/http/kernel.js'
import { startTestContext, type TestContext } from '../harness.js'

const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

let ctx: TestContext
let browser: Promise<Browser> | undefined

// Launched inside the tests (not a hook) so a missing Chromium fails them rather than skipping them.
const launch = () =>
  (browser ??= chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  }))

function baseUrl(app: HttpApp): string {
  const address = app.server.address()
  if (typeof address !== 'object' || !address) throw new Error('server is not listening on a TCP port')
  return `http://127.0.0.1:${address.port}`
}

interface Opened {
  page: Page
  requests: string[]
  errors: string[]
  /** Milliseconds from navigation to the first operation shown. */
  firstOperationMs: number
  /** Bytes received for every request so far (headers and bodies, as sent: compressed where it was). */
  wireBytes(): Promise<number>
}

/**
 * Opens `/docs` (with `hash`, a deep link) in a fresh context, recording every URL the page
 * requests, every script error and the bytes on the wire.
 */
async function openDocs(app: HttpApp, hash = ''): Promise<Opened> {
  const context = await (await launch()).newContext({ viewport: { width: 1280, height: 1000 } })
  const page = await context.newPage()
  const requests: string[] = []
  const errors: string[] = []
  const sizes: Promise<number>[] = []
  page.on('request', (request) => requests.push(request.url()))
  page.on('requestfinished', (request) =>
    sizes.push(request.sizes().then((size) => size.responseHeadersSize + size.responseBodySize)),
  )
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`)
  })
  const started = Date.now()
  const response = await page.goto(`${baseUrl(app)}/docs${hash}`, { waitUntil: 'load' })
  expect(response?.status()).toBe(200)
  // Operations, or Swagger UI's own error panel (e.g. the spec failed to load): whichever comes first.
  await page.locator('.opblock, .swagger-ui .errors-wrapper').first().waitFor({ timeout: 30_000 })
  // A non-fatal error panel may come first; give the operations a moment before giving up.
  await page
    .locator('.opblock')
    .first()
    .waitFor({ timeout: 2_000 })
    .catch(() => undefined)
  const firstOperationMs = Date.now() - started
  if ((await page.locator('.opblock').count()) === 0) {
    const shown = await page.locator('.swagger-ui .errors-wrapper').allTextContents()
    throw new Error(`Swagger UI rendered no operations: ${[...errors, ...shown].join(' | ')}`)
  }
  const wireBytes = async () => (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0)
  return { page, requests, errors, firstOperationMs, wireBytes }
}

/**
 * Swagger UI renders only the operations near the viewport once a document is long (the Core
 * API's is), so scroll down until `locator` is rendered or the page ends.
 */
async function scrollUntilRendered(page: Page, locator: Locator): Promise<void> {
  let lastScroll = -1
  for (let step = 0; step < 500 && (await locator.count()) === 0; step++) {
    await page.mouse.wheel(0, 800)
    await page.waitForTimeout(50)
    const scroll = await page.evaluate<number>('window.scrollY')
    if (scroll === lastScroll && step > 20) break
    lastScroll = scroll
  }
}

/** Only our own server: http(s) to 127.0.0.1, or inline data/blob URLs. */
function foreignRequests(requests: string[]): string[] {
  return requests.filter((url) => {
    const { protocol, hostname } = new URL(url)
    if (protocol === 'data:' || protocol === 'blob:') return false
    return !((protocol === 'http:' || protocol === 'https:') && hostname === '127.0.0.1')
  })
}

beforeAll(async () => {
  ctx = await startTestContext()
  await ctx.core.listen({ host: '127.0.0.1', port: 0 })
  await ctx.global.listen({ host: '127.0.0.1', port: 0 })
})

afterAll(async () => {
  await browser?.then(
    (b) => b.close(),
    () => undefined,
  )
  await ctx?.close()
})

describe('API reference at /docs', () => {
  it('renders the Global API operations from our own server only', async () => {
    const { page, requests, errors } = await openDocs(ctx.global)
    const register = page.locator('.opblock', { has: page.locator('[data-path="/api/organizations"]') })
    await expect
      .poll(() => register.first().locator('.opblock-summary-description').textContent())
      .toBe('Register an organisation with its first business and owner')
    await expect.poll(() => register.first().locator('.opblock-summary-method').textContent()).toBe('POST')
    await expect.poll(() => page.locator('.info .title').textContent()).toContain('Cartage Global API')

    const screenshot = path.join(os.tmpdir(), `cartage-docs-global-${process.pid}.png`)
    await page.screenshot({ path: screenshot, fullPage: true })
    console.info(`screenshot: ${screenshot}`)

    expect(requests.length).toBeGreaterThan(1)
    expect(foreignRequests(requests)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('renders the Core API title and health operations from our own server only', async () => {
    const { page, requests, errors } = await openDocs(ctx.core)
    await expect.poll(() => page.locator('.info .title').textContent()).toContain('Cartage Core API')
    const live = page.locator('.opblock', { has: page.locator('[data-path="/health/live"]') })
    await scrollUntilRendered(page, live)
    await expect.poll(() => live.count()).toBe(1)
    await expect
      .poll(() => live.first().locator('.opblock-summary-description').textContent())
      .toBe('The process is up')
    // Swagger UI renders the long Core document a section at a time as it scrolls into view.
    const ready = page.locator('[data-path="/health/ready"]')
    await scrollUntilRendered(page, ready)
    await expect.poll(() => ready.count(), { timeout: 15_000 }).toBe(1)

    const screenshot = path.join(os.tmpdir(), `cartage-docs-core-${process.pid}.png`)
    await page.screenshot({ path: screenshot, fullPage: true })
    console.info(`screenshot: ${screenshot}`)

    expect(foreignRequests(requests)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('sends the Core API reference compressed: well under 1 MB on the wire', async () => {
    const { page, errors, firstOperationMs, wireBytes } = await openDocs(ctx.core)
    // Everything the first view needs has arrived once the operations show.
    const bytes = await wireBytes()
    console.info(`Core API /docs: first operation after ${firstOperationMs} ms, ${bytes} bytes on the wire`)
    // Uncompressed, the bundle alone is 1.7 MB and the whole page 2.8 MB.
    expect(bytes).toBeLessThan(1_000_000)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('filters the operations by tag', async () => {
    const { page, errors } = await openDocs(ctx.core)
    const filter = page.locator('input.operation-filter-input')
    await filter.fill('Carriers')
    await expect
      .poll(() => page.locator('.opblock-tag').allTextContents())
      .toEqual([expect.stringMatching(/^Carriers/)])
    // The operations of the paths under the tag left (the webhooks section below the paths is not
    // filtered by tag).
    const paths = await page
      .locator('.opblock-tag-section')
      .filter({ has: page.locator('#operations-tag-Carriers') })
      .locator('.opblock .opblock-summary-path')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-path')))
    expect(paths.length).toBeGreaterThan(5)
    for (const path of paths) expect(path).toMatch(/^\/api\/carriers/)
    expect(await page.locator('#operations-tag-Me').count()).toBe(0)
    // Cleared, the other tags come back (the first of them is Me).
    await filter.fill('')
    await expect.poll(() => page.locator('#operations-tag-Me').count()).toBe(1)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('opens the operation a deep link names, with its defaults and the server to call', async () => {
    const { page, errors } = await openDocs(ctx.core, '#/Customers/GetAllCustomers')
    const operation = page.locator('#operations-Customers-GetAllCustomers')
    await expect.poll(() => operation.getAttribute('class')).toContain('is-open')
    // Page and PageSize are optional, with their defaults shown.
    const pageSize = operation.locator('tr[data-param-name="PageSize"]')
    await expect.poll(() => pageSize.textContent()).toContain('Default value : 20')
    await expect
      .poll(() => pageSize.locator('.parameter__name').getAttribute('class'))
      .not.toContain('required')
    // "Try it out" calls the server the page was loaded from.
    await expect
      .poll(() => page.locator('.servers select option').first().getAttribute('value'))
      .toBe(baseUrl(ctx.core))
    expect(errors).toEqual([])
    await page.context().close()
  })
})
