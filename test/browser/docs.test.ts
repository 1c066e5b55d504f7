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

/** Opens `/docs` in a fresh context, recording every URL the page requests and every script error. */
async function openDocs(app: HttpApp): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const context = await (await launch()).newContext({ viewport: { width: 1280, height: 1000 } })
  const page = await context.newPage()
  const requests: string[] = []
  const errors: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`)
  })
  const response = await page.goto(`${baseUrl(app)}/docs`, { waitUntil: 'load' })
  expect(response?.status()).toBe(200)
  // Operations, or Swagger UI's own error panel (e.g. the spec failed to load): whichever comes first.
  await page.locator('.opblock, .swagger-ui .errors-wrapper').first().waitFor({ timeout: 30_000 })
  // A non-fatal error panel may come first; give the operations a moment before giving up.
  await page
    .locator('.opblock')
    .first()
    .waitFor({ timeout: 2_000 })
    .catch(() => undefined)
  if ((await page.locator('.opblock').count()) === 0) {
    const shown = await page.locator('.swagger-ui .errors-wrapper').allTextContents()
    throw new Error(`Swagger UI rendered no operations: ${[...errors, ...shown].join(' | ')}`)
  }
  return { page, requests, errors }
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
    await expect.poll(() => page.locator('[data-path="/health/ready"]').count()).toBe(1)

    const screenshot = path.join(os.tmpdir(), `cartage-docs-core-${process.pid}.png`)
    await page.screenshot({ path: screenshot, fullPage: true })
    console.info(`screenshot: ${screenshot}`)

    expect(foreignRequests(requests)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
