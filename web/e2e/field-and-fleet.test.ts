import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seriousAxeFindings } from './axe.js'
import { api, launchChromium, nav, openPage, screenshot, shows, signIn } from './browser.js'
import { type DemoServer, startDemoServer } from './server.js'

// A driver's run on a phone (the demo's morning run, dispatched here), and the fleet's reference data
// at a desk: carriers with write-only credentials, package sizes, the business's time zone and
// currency. Debian's Chromium against the demo organisation; screenshots in web/e2e/artifacts/.

/** A 1×1 PNG: a photo the server accepts as an image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

interface PlanSummary {
  id: string
  code: string
  name: string | null
  status: string
}
interface Proof {
  status: string
  operations: {
    kind: string
    recipientName: string | null
    signatureFileId: string | null
    photoFileIds: string[]
    reason: string | null
    afterFailure: string | null
  }[]
}

let server: DemoServer
let browser: Browser
let phone: Page
let desk: Page
const errors: string[][] = []
let core: Awaited<ReturnType<typeof api>>['core']
let token: string

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startDemoServer(), launchChromium()])
  ;({ core, token } = await api(server))
  const phoneContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  })
  const deskContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const opened = await Promise.all([openPage(phoneContext), openPage(deskContext)])
  phone = opened[0].page
  desk = opened[1].page
  errors.push(opened[0].errors, opened[1].errors)
  await Promise.all([signIn(phone, server), signIn(desk, server)])
  await Promise.all(
    [phone, desk].map((page) => page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()),
  )
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') {
    const name = task.name.replace(/\W+/g, '-').slice(0, 50)
    await screenshot(phone, `fleet-failed-phone-${name}`).catch(() => undefined)
    await screenshot(desk, `fleet-failed-desk-${name}`).catch(() => undefined)
  }
  for (const list of errors) expect(list.splice(0)).toEqual([])
})

async function expectAccessible(page: Page) {
  expect(await seriousAxeFindings(page)).toEqual([])
}

describe("the driver's stops on a phone", () => {
  it('arrives, refuses a photo that is not an image at its field, delivers with a signature, and fails the next stop', async () => {
    // The morning run goes out (as the dispatcher would do on the plan's page).
    const plans = await core<PlanSummary[]>('GET', '/api/v1/plans?Page=1&PageSize=10')
    const morning = plans.find((p) => p.name === 'Morning run') as PlanSummary
    await core('POST', `/api/v1/plans/${morning.id}/schedule`)
    await core('POST', `/api/v1/plans/${morning.id}/dispatch`)
    const plan = await core<{ shipments: { id: string; code: string; stopSequence: number | null }[] }>(
      'GET',
      `/api/v1/plans/${morning.id}`,
    )
    const ordered = [...plan.shipments].sort((a, b) => (a.stopSequence ?? 0) - (b.stopSequence ?? 0))
    const [first, second] = ordered as [(typeof ordered)[0], (typeof ordered)[0]]
    const pick = await core<{ byStop: { shipmentId: string; lines: { name: string }[] }[] }>(
      'GET',
      `/api/v1/plans/${morning.id}/pick-list`,
    )
    const firstLines = pick.byStop.find((s) => s.shipmentId === first.id)?.lines ?? []

    await phone.goto(`${server.core}/#/delivery/plans/${morning.id}`)
    await phone.getByRole('heading', { level: 1, name: new RegExp(morning.code) }).waitFor()
    await phone.getByRole('link', { name: 'Driver’s stops' }).click()
    await phone.getByRole('heading', { level: 1, name: `Stops of ${morning.code}` }).waitFor()
    await shows(phone.getByRole('status'), `0 of ${ordered.length} stops done`)

    // The stops in order, each with its address and goods; the first is the current one.
    const stops = phone.locator('ol.stops > li')
    await expect.poll(() => stops.count()).toBe(ordered.length)
    const headings = await stops.locator('h2').allTextContents()
    expect(headings.map((h) => h.match(/SHP-\d+/)?.[0])).toEqual(ordered.map((s) => s.code))
    const current = phone.locator('li[aria-current="step"]')
    await shows(current, first.code)
    expect(await current.locator('.stop-address').textContent()).toBeTruthy()
    if (firstLines.length > 0)
      await shows(
        current.getByRole('list', { name: `To deliver at ${first.code}` }),
        firstLines[0]?.name ?? '',
      )
    // The page fits the phone: nothing to scroll sideways.
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390)
    await expectAccessible(phone)

    await current.getByRole('button', { name: 'Arrived', exact: true }).click()
    await shows(current, /Arrived \d{1,2}:\d{2}/)

    await current.getByRole('button', { name: 'Delivered', exact: true }).click()
    const form = phone.getByRole('form', { name: `Delivered ${first.code}` })
    await form.getByRole('button', { name: 'Confirm delivery' }).click()
    await shows(form.locator('.problem'), 'Enter who took the goods.')
    await shows(form.locator('.problem'), 'Ask the recipient to sign in the box.')

    await form.getByLabel('Received by').fill('Sipho at reception')
    const box = await form.locator('canvas.signature').boundingBox()
    if (!box) throw new Error('no signature box')
    await phone.mouse.move(box.x + 20, box.y + box.height / 2)
    await phone.mouse.down()
    for (let step = 1; step <= 12; step++)
      await phone.mouse.move(
        box.x + 20 + step * ((box.width - 40) / 12),
        box.y + box.height / 2 + (step % 2 ? -25 : 25),
      )
    await phone.mouse.up()
    // A text file is not a photo: the proof upload refuses it (415), shown at the photo's field,
    // and nothing of the delivery is saved.
    const photo = form.getByLabel('Photo (optional)')
    await photo.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('left at gate'),
    })
    await form.getByRole('button', { name: 'Confirm delivery' }).click()
    await shows(form.getByRole('alert'), 'File type not accepted')
    expect(await photo.getAttribute('aria-invalid')).toBe('true')
    const problemId = (await photo.getAttribute('aria-describedby'))?.split(' ').pop() ?? ''
    expect(await phone.locator(`[id="${problemId}"]`).textContent()).toMatch(
      /not accepted\. Allowed: PNG, JPEG, WebP or HEIC images/,
    )
    expect((await core<Proof>('GET', `/api/v1/shipments/${first.id}/proof`)).status).toBe('InTransit')
    await expectAccessible(phone)
    await screenshot(phone, 'fleet-01-driver-photo-refused')

    await photo.setInputFiles({ name: 'parcel.png', mimeType: 'image/png', buffer: PNG })
    await form.getByRole('button', { name: 'Confirm delivery' }).click()
    await shows(phone.getByRole('status'), `1 of ${ordered.length} stops done`)
    await shows(phone.locator('li[aria-current="step"]'), second.code)
    const delivered = await core<Proof>('GET', `/api/v1/shipments/${first.id}/proof`)
    expect(delivered.status).toBe('Delivered')
    expect(delivered.operations.map((o) => o.kind)).toEqual(['Arrived', 'Delivered'])
    const proof = delivered.operations[1]
    expect(proof?.recipientName).toBe('Sipho at reception')
    expect(proof?.signatureFileId).toMatch(/^[0-9a-f-]{36}$/)
    expect(proof?.photoFileIds).toHaveLength(1)
    // The signature stored is the PNG drawn on the phone.
    const signature = await fetch(`${server.core}/api/files/${proof?.signatureFileId}`, {
      headers: { authorization: `Bearer ${token}`, 'x-business-id': server.businessId },
    })
    expect(signature.headers.get('content-type')).toBe('image/png')
    expect((await signature.arrayBuffer()).byteLength).toBeGreaterThan(500)

    // The next stop: the gate is locked.
    const next = phone.locator('li[aria-current="step"]')
    await next.getByRole('button', { name: 'Failed', exact: true }).click()
    const failed = phone.getByRole('form', { name: `Failed ${second.code}` })
    await failed.getByRole('button', { name: 'Confirm failed delivery' }).click()
    await shows(failed.locator('.problem'), 'Say why the delivery failed.')
    await failed.getByLabel('Reason').fill('Gate locked, nobody answered')
    await failed.getByLabel('Then').selectOption({ label: 'Return the goods to stock' })
    await failed.getByRole('button', { name: 'Confirm failed delivery' }).click()
    await shows(phone.getByRole('status'), `2 of ${ordered.length} stops done`)
    const failure = await core<Proof>('GET', `/api/v1/shipments/${second.id}/proof`)
    expect(failure.status).toBe('Failed')
    expect(failure.operations.at(-1)).toMatchObject({
      kind: 'Failed',
      reason: 'Gate locked, nobody answered',
      afterFailure: 'ReturnToStock',
    })
    await shows(stops.filter({ hasText: second.code }), 'Failed')
    await expectAccessible(phone)
    await screenshot(phone, 'fleet-02-driver-stops')
  })
})

describe('carriers', () => {
  it('adds a carrier with a secret it never shows back, names a too-long account at its field, edits and removes it', async () => {
    await nav(desk, 'Carriers')
    await desk.getByRole('heading', { level: 1, name: 'Carriers' }).waitFor()
    const table = desk.getByRole('table', { name: 'Carriers of this business' })
    await desk.getByRole('button', { name: 'Add a carrier' }).click()
    const form = desk.getByRole('form', { name: 'New carrier' })
    const choice = form.getByLabel('Carrier', { exact: true })
    await expect.poll(() => choice.locator('option').count()).toBeGreaterThan(1)
    const carrierName = ((await choice.locator('option').nth(1).textContent()) ?? '').replace(/ \(.*\)$/, '')
    await choice.selectOption({ index: 1 })
    await form.getByLabel('Account reference').fill('A'.repeat(201))
    await form.getByLabel('Credential 1 name').fill('apiKey')
    await form.getByLabel('Credential 1 value').fill('sk_live_never_shown_again')
    await form.getByRole('button', { name: 'Add carrier' }).click()
    const account = form.getByLabel('Account reference')
    await expect.poll(() => account.getAttribute('aria-invalid')).toBe('true')
    await shows(form.getByRole('alert'), 'accountReference')
    await expectAccessible(desk)

    await account.fill('ACC-4411')
    await form.getByRole('button', { name: 'Add carrier' }).click()
    await shows(desk.getByRole('status'), `Added ${carrierName}.`)
    const row = table.getByRole('row', { name: new RegExp(carrierName) })
    await shows(row, 'ACC-4411')
    await shows(row, 'Set')
    expect(await desk.content()).not.toContain('sk_live_never_shown_again')
    await screenshot(desk, 'fleet-03-carriers')

    await row.getByRole('button', { name: `Edit ${carrierName}` }).click()
    const edit = desk.getByRole('form', { name: `Edit ${carrierName}` })
    await shows(edit, 'Credentials are set.')
    expect(await edit.getByLabel('Credential 1 value').inputValue()).toBe('')
    await edit.getByLabel('Account reference').fill('ACC-5000')
    await edit.getByLabel('Remove the stored credentials').check()
    await edit.getByRole('button', { name: 'Save carrier' }).click()
    await shows(desk.getByRole('status'), `Saved ${carrierName}.`)
    await desk.reload()
    await desk.getByRole('heading', { level: 1, name: 'Carriers' }).waitFor()
    const saved = table.getByRole('row', { name: new RegExp(carrierName) })
    await shows(saved, 'ACC-5000')
    await shows(saved, 'Not set')

    await saved.getByRole('button', { name: `Remove ${carrierName}` }).click()
    await saved.getByRole('button', { name: `Yes, remove ${carrierName}` }).click()
    await shows(desk.getByRole('status'), `Removed ${carrierName}.`)
    await expect.poll(() => table.getByRole('row', { name: new RegExp(carrierName) }).count()).toBe(0)
    await expectAccessible(desk)
  })
})

describe('package sizes', () => {
  it('adds a size, names a size too large at its field, edits it and removes it', async () => {
    await nav(desk, 'Package sizes')
    await desk.getByRole('heading', { level: 1, name: 'Package sizes' }).waitFor()
    const table = desk.getByRole('table', { name: 'Package sizes' })
    await desk.getByRole('button', { name: 'New package size' }).click()
    const form = desk.getByRole('form', { name: 'New package size' })
    await form.getByLabel('Name', { exact: true }).fill('Wine box')
    await form.getByLabel('Length').fill('200000')
    await form.getByLabel('Width').fill('20')
    await form.getByLabel('Height').fill('35')
    await form.getByLabel('Heaviest load').fill('9')
    await form.getByRole('button', { name: 'Add package size' }).click()
    const length = form.getByLabel('Length')
    await expect.poll(() => length.getAttribute('aria-invalid')).toBe('true')
    await shows(form.getByRole('alert'), 'length')
    await expectAccessible(desk)

    await length.fill('30')
    await form.getByRole('button', { name: 'Add package size' }).click()
    await shows(desk.getByRole('status'), 'Added Wine box.')
    const row = table.getByRole('row', { name: /Wine box/ })
    await shows(row, '30 × 20 × 35 cm')
    await shows(row, '9 kg')

    await row.getByRole('button', { name: 'Edit Wine box' }).click()
    const edit = desk.getByRole('form', { name: 'Edit Wine box' })
    await edit.getByLabel('Height').fill('40')
    await edit.getByRole('button', { name: 'Save package size' }).click()
    await shows(desk.getByRole('status'), 'Saved Wine box.')
    await desk.reload()
    await desk.getByRole('heading', { level: 1, name: 'Package sizes' }).waitFor()
    await shows(table.getByRole('row', { name: /Wine box/ }), '30 × 20 × 40 cm')
    // The list is a bare array (no envelope): read it as the API answers it.
    const presets = await fetch(`${server.core}/api/dimensions/presets`, {
      headers: { authorization: `Bearer ${token}`, 'x-business-id': server.businessId },
    })
    const stored = (await presets.json()) as { name: string; height: number }[]
    expect(stored.find((p) => p.name === 'Wine box')?.height).toBe(40)
    await screenshot(desk, 'fleet-04-package-sizes')

    await table.getByRole('button', { name: 'Remove Wine box' }).click()
    await table.getByRole('button', { name: 'Yes, remove Wine box' }).click()
    await shows(desk.getByRole('status'), 'Removed Wine box.')
    await expect.poll(() => table.getByRole('row', { name: /Wine box/ }).count()).toBe(0)
    await expectAccessible(desk)
  })
})

describe("the business's time zone and currency", () => {
  it('names an unknown time zone at its field, then saves a zone and a currency the console then uses', async () => {
    await nav(desk, 'Business settings')
    await desk.getByRole('heading', { level: 1, name: 'Business settings' }).waitFor()
    const form = desk.getByRole('form', { name: 'Time zone and currency' })
    const zone = form.getByLabel('Time zone', { exact: true })
    await expect.poll(() => zone.inputValue()).not.toBe('')
    await zone.fill('Mars/Olympus_Mons')
    await form.getByRole('button', { name: 'Save time zone and currency' }).click()
    await expect.poll(() => zone.getAttribute('aria-invalid')).toBe('true')
    await shows(form.getByRole('alert'), 'timezone')
    await expectAccessible(desk)

    const before = await core<Record<string, unknown>>('GET', '/api/business/my-business')
    await zone.fill('Europe/Lisbon')
    await form.getByLabel('Currency').selectOption('EUR')
    await form.getByRole('button', { name: 'Save time zone and currency' }).click()
    await shows(desk.getByRole('status'), 'Saved: Europe/Lisbon, amounts in EUR.')
    const after = await core<Record<string, unknown>>('GET', '/api/business/my-business')
    expect(after).toMatchObject({ timezone: 'Europe/Lisbon', currency: 'EUR' })
    // Nothing else of the business was lost by the replace.
    for (const field of [
      'registeredName',
      'displayName',
      'email',
      'phoneNumber',
      'address',
      'parentBusinessId',
    ])
      expect(after[field]).toEqual(before[field])
    await desk.reload()
    await desk.getByRole('heading', { level: 1, name: 'Business settings' }).waitFor()
    await expect.poll(() => zone.inputValue()).toBe('Europe/Lisbon')
    expect(await form.getByLabel('Currency').inputValue()).toBe('EUR')
    await expectAccessible(desk)
    await screenshot(desk, 'fleet-05-time-zone-currency')
  })
})
