import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seriousAxeFindings } from './axe.js'
import { api, launchChromium, nav, openPage, screenshot, shows, signIn } from './browser.js'
import { type DemoServer, startDemoServer } from './server.js'

// The administration screens in Debian's Chromium against the demo organisation: webhooks (with a
// receiver on this machine, which the server may reach because WEBHOOKS_ALLOW_PRIVATE_TARGETS is
// on here), the team, roles and API keys, and the business's settings. Screenshots: web/e2e/artifacts/.

interface Received {
  headers: IncomingHttpHeaders
  body: { type: string }
}

let server: DemoServer
let browser: Browser
let context: BrowserContext
let page: Page
let errors: string[]
let receiver: Server
let receiverUrl: string
const received: Received[] = []

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on('end', () => {
      received.push({ headers: request.headers, body: JSON.parse(body) as Received['body'] })
      response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  ;[server, browser] = await Promise.all([
    startDemoServer({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_POLL_INTERVAL_MS: '100' }),
    launchChromium(),
  ])
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.core })
  ;({ page, errors } = await openPage(context))
  await signIn(page, server)
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
})

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail')
    await screenshot(page, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => undefined)
  expect(errors.splice(0)).toEqual([])
})

const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name })
const status = () => page.getByRole('status')

async function expectAccessible() {
  const findings = await seriousAxeFindings(page)
  expect(findings).toEqual([])
}

describe('webhooks', () => {
  it('names a refused address at the URL field', async () => {
    // A multicast address is never a webhook target, whatever the server allows.
    await nav(page, 'Webhooks')
    await heading('Webhooks').waitFor()
    await page.getByRole('button', { name: 'Add an endpoint' }).click()
    const form = page.getByRole('form', { name: 'New webhook endpoint' })
    await form.getByLabel('Address (URL)').fill('https://224.0.0.1/hooks')
    await form.getByRole('checkbox', { name: /supplier\.created/ }).check()
    await form.getByRole('button', { name: 'Add endpoint' }).click()
    await shows(form.getByRole('alert'), 'Some values were not accepted')
    const url = form.getByLabel('Address (URL)')
    expect(await url.getAttribute('aria-invalid')).toBe('true')
    const problemId = (await url.getAttribute('aria-describedby'))?.split(' ').pop() ?? ''
    expect(await page.locator(`[id="${problemId}"]`).textContent()).toMatch(/never a webhook target/)
    await expectAccessible()
  })

  it('adds an endpoint and shows its secret once, then not after a reload', async () => {
    const form = page.getByRole('form', { name: 'New webhook endpoint' })
    await form.getByLabel('Address (URL)').fill(receiverUrl)
    await form.getByLabel('Description').fill('Warehouse ERP')
    await form.getByRole('button', { name: 'Add endpoint' }).click()
    const secret = page.getByRole('textbox', { name: 'Signing secret' })
    await secret.waitFor()
    const value = await secret.inputValue()
    expect(value).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/)
    await shows(page.locator('.notice.warn'), 'it will not be shown again')
    await page.getByRole('button', { name: 'Copy' }).click()
    await shows(page.locator('.notice.warn'), 'Copied to the clipboard.')
    expect(
      await page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).toBe(value)
    await shows(page.getByRole('table', { name: 'Webhook endpoints' }), 'Warehouse ERP')
    await expectAccessible()
    await screenshot(page, 'admin-01-webhook-secret')

    await page.reload()
    await heading('Webhooks').waitFor()
    await shows(page.getByRole('table', { name: 'Webhook endpoints' }), 'Warehouse ERP')
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).count()).toBe(0)
    expect(await page.content()).not.toContain(value)
  })

  it('sends a test event, logs a real delivery, replays it, and disables the endpoint', async () => {
    // The endpoint chosen stays in the address, so the reload above kept it open.
    const detail = page.getByRole('region', { name: `Endpoint ${receiverUrl}` })
    await detail.getByRole('button', { name: 'Send a test event' }).click()
    await shows(detail.getByRole('status'), 'Test event: succeeded')
    await shows(detail.getByRole('status'), 'The receiver answered 200')
    const test = received.find((r) => r.body.type === 'webhook.test')
    expect(test?.headers['webhook-signature']).toMatch(/^v1,/)

    // Something happens in the business: a supplier is created elsewhere, and its event is delivered.
    const calls = await api(server)
    await calls.core('POST', '/api/v1/suppliers', { name: 'Hook Test Supplies' })
    const log = detail.getByRole('table', { name: 'Delivery log' })
    await expect.poll(() => received.filter((r) => r.body.type === 'supplier.created').length).toBe(1)
    await detail.getByRole('button', { name: 'Refresh the log' }).click()
    await shows(log, 'supplier.created')
    const row = log.getByRole('row').filter({ hasText: 'supplier.created' })
    await shows(row, 'Succeeded')
    await shows(row, '200')
    await row.getByRole('button', { name: /^Replay supplier\.created/ }).click()
    await shows(detail.getByRole('status'), 'Replayed: 1 delivery queued.')
    await expect.poll(() => received.filter((r) => r.body.type === 'supplier.created').length).toBe(2)
    const ids = received.filter((r) => r.body.type === 'supplier.created').map((r) => r.headers['webhook-id'])
    expect(ids[0]).toBe(ids[1])

    await detail.getByRole('button', { name: 'Disable' }).click()
    await shows(detail.getByRole('status'), 'Endpoint disabled.')
    await shows(
      page.getByRole('table', { name: 'Webhook endpoints' }).getByRole('row', { name: /Warehouse ERP/ }),
      'Disabled',
    )
    await detail.getByRole('button', { name: 'Rotate the secret' }).click()
    const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()
    expect(rotated).toMatch(/^whsec_/)
    await expectAccessible()
    await screenshot(page, 'admin-02-webhook-log')
  })
})

describe('team, roles and API keys', () => {
  it('creates a role with rights per module, invites a member and gives them the role', async () => {
    await nav(page, 'Team and roles')
    await heading('Team and roles').waitFor()
    const members = page.getByRole('table', { name: 'Members' })
    await shows(members, server.email)

    await page.getByRole('button', { name: 'New role' }).click()
    const roleForm = page.getByRole('form', { name: 'New role' })
    await roleForm.getByRole('button', { name: 'Create role' }).click()
    await shows(roleForm.locator('.problem'), 'Give the role a name.')
    await roleForm.getByLabel('Role name').fill('Dispatchers')
    await roleForm.getByLabel('Shipments', { exact: true }).selectOption({ label: 'View and modify' })
    await roleForm.getByLabel('Customers', { exact: true }).selectOption({ label: 'View' })
    await roleForm.getByRole('button', { name: 'Create role' }).click()
    await shows(status(), 'Created the role Dispatchers.')
    const dispatchers = page.getByRole('table', { name: 'Roles' }).getByRole('row', { name: /Dispatchers/ })
    await shows(dispatchers, 'View and modify: Shipments')
    await shows(dispatchers, 'View: Customers')

    await page.getByLabel('Email to invite').fill('new.dispatcher@example.com')
    await page.getByLabel('First name').fill('Thandi')
    await page.getByLabel('Role to give').selectOption({ label: 'Member' })
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await shows(status(), 'Invited new.dispatcher@example.com')
    const invited = members.getByRole('row', { name: /new\.dispatcher@example\.com/ })
    await shows(invited, 'Invited')
    await invited
      .getByLabel('Role of new.dispatcher@example.com')
      .selectOption({ label: 'Dispatchers (custom)' })
    await shows(status(), 'Changed the role of new.dispatcher@example.com.')
    await page.reload()
    await heading('Team and roles').waitFor()
    const select = page.getByLabel('Role of new.dispatcher@example.com')
    await expect.poll(() => select.locator('option:checked').textContent()).toBe('Dispatchers (custom)')
    await expectAccessible()
    await screenshot(page, 'admin-03-team')
  })

  it('creates an API key with scopes, shows it once, and revokes it', async () => {
    await page.getByRole('button', { name: 'New API key' }).click()
    const form = page.getByRole('form', { name: 'New API key' })
    await form.getByLabel('Key label').fill('Shop plug-in')
    await form.getByLabel('Customers', { exact: true }).selectOption({ label: 'View' })
    await form.getByRole('button', { name: 'Create key' }).click()
    const key = await page.getByRole('textbox', { name: 'API key', exact: true }).inputValue()
    expect(key.length).toBeGreaterThan(20)
    await shows(page.locator('.notice.warn'), 'it will not be shown again')
    const keys = page.getByRole('table', { name: 'API keys' })
    const row = keys.getByRole('row', { name: /Shop plug-in/ })
    await shows(row, 'View: Customers')
    await shows(row, key.slice(0, 12))

    const customers = () =>
      fetch(`${server.core}/api/v1/Customers?Page=1&PageSize=1`, { headers: { 'x-dispatch-api-key': key } })
    expect((await customers()).status).toBe(200)

    await page.reload()
    await heading('Team and roles').waitFor()
    await shows(page.getByRole('table', { name: 'API keys' }), 'Shop plug-in')
    expect(await page.getByRole('textbox', { name: 'API key', exact: true }).count()).toBe(0)
    expect(await page.content()).not.toContain(key)

    await page.getByRole('button', { name: 'Revoke the key Shop plug-in' }).click()
    await page.getByRole('button', { name: 'Yes, revoke Shop plug-in' }).click()
    await shows(status(), 'Revoked the key Shop plug-in')
    await expect
      .poll(() => page.getByRole('table', { name: 'API keys' }).getByText('Shop plug-in').count())
      .toBe(0)
    expect((await customers()).status).toBe(401)
  })
})

describe('business settings', () => {
  it('refuses a bad value at its field, then saves a change that stays after a reload', async () => {
    await nav(page, 'Business settings')
    await heading('Business settings').waitFor()
    const prefix = page.getByLabel('Code prefix (orders.codePrefix)')
    await prefix.fill('ORD-2026!')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await shows(page.locator('.problem'), 'Must be 1 to 10 letters or digits.')
    expect(await prefix.getAttribute('aria-invalid')).toBe('true')
    await prefix.fill('SO')

    await page.getByLabel('Short confirmation (orders.shortConfirmation)').selectOption('Refuse')
    await page.getByLabel('Receipt tolerance percent (purchasing.receiptTolerancePercent)').fill('2.5')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await shows(status(), 'Saved 3 settings.')
    await expectAccessible()
    await screenshot(page, 'admin-04-settings')

    await page.reload()
    await heading('Business settings').waitFor()
    expect(await page.getByLabel('Short confirmation (orders.shortConfirmation)').inputValue()).toBe('Refuse')
    expect(await page.getByLabel('Code prefix (orders.codePrefix)').inputValue()).toBe('SO')
    expect(
      await page.getByLabel('Receipt tolerance percent (purchasing.receiptTolerancePercent)').inputValue(),
    ).toBe('2.5')
    const calls = await api(server)
    const stored = await calls.core<{ key: string; value: string | null }[]>(
      'GET',
      '/api/settings/business?keys=orders.shortConfirmation',
    )
    expect(stored.find((s) => s.key === 'orders.shortConfirmation')?.value).toBe('Refuse')

    // Back to the default: the API no longer holds a value of its own.
    await page.getByRole('button', { name: 'Use the default for orders.shortConfirmation' }).click()
    await page.getByRole('button', { name: 'Save settings' }).click()
    await shows(status(), 'Saved 1 setting.')
    await expect
      .poll(() => page.getByLabel('Short confirmation (orders.shortConfirmation)').inputValue())
      .toBe('Backorder')
  })
})

describe('vehicles', () => {
  it('adds a vehicle, names a half-given shift at its field, and edits its load', async () => {
    await nav(page, 'Vehicles')
    await heading('Vehicles').waitFor()
    await page.getByRole('button', { name: 'New vehicle' }).click()
    const form = page.getByRole('form', { name: 'New vehicle' })
    await form.getByLabel('Registration').fill('CA 555-000')
    await form.getByLabel('Name', { exact: true }).fill('Cold van')
    await form.getByLabel('Largest load (kg)').fill('900')
    await form.getByLabel('Shift starts').fill('07:30')
    await form.getByRole('button', { name: 'Add vehicle' }).click()
    await shows(form.locator('.problem'), 'Give both ends of the shift, or neither.')
    await form.getByLabel('Shift ends').fill('16:00')
    await form.getByRole('button', { name: 'Add vehicle' }).click()
    await shows(status(), 'Added Cold van.')
    const row = page.getByRole('table', { name: 'Vehicles' }).getByRole('row', { name: /Cold van/ })
    await shows(row, '07:30–16:00')

    await row.getByRole('button', { name: 'Edit Cold van (CA 555-000)' }).click()
    const edit = page.getByRole('form', { name: 'Edit Cold van' })
    await edit.getByLabel('Largest load (kg)').fill('1200')
    await edit.getByRole('button', { name: 'Save vehicle' }).click()
    await shows(status(), 'Saved Cold van.')
    await page.reload()
    await heading('Vehicles').waitFor()
    await shows(page.getByRole('table', { name: 'Vehicles' }).getByRole('row', { name: /Cold van/ }), '1200')
    await expectAccessible()
  })
})
