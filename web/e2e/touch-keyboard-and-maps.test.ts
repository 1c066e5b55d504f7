import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seriousAxeFindings } from './axe.js'
import { api, launchChromium, openPage, screenshot, shows, signIn } from './browser.js'
import { type DemoServer, startDemoServer } from './server.js'

// The console without a mouse or a tile server: land and coastlines drawn offline under the zones,
// a plan's stops put in order by a finger, a driver who signs by keyboard with the phone's position
// saved on each report, and a confirmed order edited. Debian's Chromium against the demo organisation
// (around Cape Town); screenshots in web/e2e/artifacts/.

interface PlanSummary {
  id: string
  code: string
  name: string | null
  status: string
}
interface PlanStops {
  shipments: { id: string; code: string; stopSequence: number | null }[]
}
interface Operation {
  kind: string
  latitude: number | null
  longitude: number | null
  recipientName: string | null
  signatureFileId: string | null
}
interface Product {
  id: string
  unitOfMeasure: string
}
interface Order {
  id: string
  code: string
  status: string
  lines: { quantity: number }[]
}

/** Where the phone says it is: the Bree Street Deli, the morning run's first stop. */
const PHONE_AT = { latitude: -33.9195, longitude: 18.4172 }

let server: DemoServer
let browser: Browser
let phone: Page
let tablet: Page
let tabletContext: BrowserContext
const errors: string[][] = []
let core: Awaited<ReturnType<typeof api>>['core']
let token: string
let morning: PlanSummary

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startDemoServer(), launchChromium()])
  ;({ core, token } = await api(server))
  const phoneContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    geolocation: PHONE_AT,
    permissions: ['geolocation'],
  })
  // A touch screen the size of a desk's: a finger and a mouse on the same pages.
  tabletContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, hasTouch: true })
  const opened = await Promise.all([openPage(phoneContext), openPage(tabletContext)])
  phone = opened[0].page
  tablet = opened[1].page
  errors.push(opened[0].errors, opened[1].errors)
  await Promise.all([signIn(phone, server), signIn(tablet, server)])
  await Promise.all(
    [phone, tablet].map((page) => page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()),
  )
  const plans = await core<PlanSummary[]>('GET', '/api/v1/plans?Page=1&PageSize=10')
  morning = plans.find((p) => p.name === 'Morning run') as PlanSummary
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') {
    const name = task.name.replace(/\W+/g, '-').slice(0, 50)
    await screenshot(phone, `touch-failed-phone-${name}`).catch(() => undefined)
    await screenshot(tablet, `touch-failed-tablet-${name}`).catch(() => undefined)
  }
  for (const list of errors) expect(list.splice(0)).toEqual([])
})

async function expectAccessible(page: Page, selector?: string) {
  expect(await seriousAxeFindings(page, selector)).toEqual([])
}

/** Whether the offline land covers the point of the page at (x, y), by the SVG's own fill rule. */
async function landAt(page: Page, x: number, y: number): Promise<boolean> {
  // A string: the tests are compiled without the DOM's types; this runs in the page.
  const inFill = `[...document.querySelectorAll('.leaflet-basemap-pane path')].some((path) => {
    const matrix = path.getScreenCTM()
    return matrix !== null && path.isPointInFill(new DOMPoint(${x}, ${y}).matrixTransform(matrix.inverse()))
  })`
  return (await page.evaluate(inFill)) === true
}

async function centre(locator: Locator) {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not on the screen')
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

async function planOrder(): Promise<string[]> {
  const plan = await core<PlanStops>('GET', `/api/v1/plans/${morning.id}`)
  return [...plan.shipments].sort((a, b) => (a.stopSequence ?? 0) - (b.stopSequence ?? 0)).map((s) => s.code)
}

describe('the map with no tile server', () => {
  it('draws land and coastlines under the zones: the suburbs on land, the Atlantic as sea', async () => {
    await tablet.goto(`${server.core}/#/delivery/zones`)
    await tablet.getByRole('heading', { level: 1, name: 'Delivery zones' }).waitFor()
    const map = tablet.getByRole('region', { name: /^Map of the delivery zones/ })
    const land = map.locator('.leaflet-basemap-pane path')
    await land.first().waitFor({ state: 'attached' })
    // No tiles: the land is the only background, and it lies under the zones.
    expect(await map.locator('.leaflet-tile-pane img').count()).toBe(0)
    const z = async (pane: string) =>
      Number(
        await tablet.evaluate(`getComputedStyle(document.querySelector('.leaflet-${pane}-pane')).zIndex`),
      )
    expect(await z('basemap')).toBeLessThan(await z('overlay'))
    expect(await map.locator('.leaflet-basemap-pane').getAttribute('aria-hidden')).toBe('true')

    // Out far enough to see the sea west of the Cape Peninsula (the map's own zoom button).
    for (let i = 0; i < 3; i++) await map.getByRole('button', { name: 'Zoom out' }).click()
    await tablet.waitForTimeout(400)
    const suburbs = await centre(map.locator('.zone-label', { hasText: 'Northern Suburbs' }))
    expect(await landAt(tablet, suburbs.x, suburbs.y)).toBe(true)
    const box = await map.boundingBox()
    if (!box) throw new Error('no map')
    expect(await landAt(tablet, box.x + 8, suburbs.y)).toBe(false)
    // A click on the land still reaches the map (drawing a zone adds a corner there).
    await tablet.getByRole('button', { name: 'Draw a new zone' }).click()
    await tablet.mouse.click(suburbs.x + 40, suburbs.y + 40)
    await tablet.getByRole('heading', { name: 'New zone' }).waitFor()
    await expectAccessible(tablet)
    await screenshot(tablet, 'touch-01-offline-basemap')
  })
})

describe("a plan's stops put in order by touch", () => {
  it('drags a stop by its grip with a finger, and by its row with a mouse', async () => {
    const before = await planOrder()
    expect(before.length).toBeGreaterThan(3)
    await tablet.goto(`${server.core}/#/delivery/plans/${morning.id}`)
    await tablet.getByRole('heading', { level: 1, name: new RegExp(morning.code) }).waitFor()
    const table = tablet.getByRole('table', { name: /^Stops of/ })
    const row = (code: string) => table.getByRole('row').filter({ hasText: code })
    await row(before[0] ?? '').waitFor()

    // A finger on the first stop's grip, moved onto the third row and lifted: real touch events.
    await row(before[3] ?? '').scrollIntoViewIfNeeded()
    const from = await centre(row(before[0] ?? '').locator('.drag-grip'))
    const to = await centre(row(before[2] ?? ''))
    const touch = await tabletContext.newCDPSession(tablet)
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] })
    for (let step = 1; step <= 8; step++)
      await touch.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: from.x, y: from.y + ((to.y - from.y) * step) / 8 }],
      })
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    await shows(tablet.getByRole('status'), `${before[0]} is now stop 3 of ${before.length}.`)
    const touched = [before[1], before[2], before[0], ...before.slice(3)]
    await expect.poll(planOrder).toEqual(touched)
    await expect.poll(() => table.getByRole('row').nth(3).textContent()).toContain(before[0])

    // A mouse drags the row itself back to the top.
    const back = await centre(
      row(before[0] ?? '')
        .getByRole('cell')
        .nth(2),
    )
    const top = await centre(row(before[1] ?? ''))
    await tablet.mouse.move(back.x, back.y)
    await tablet.mouse.down()
    for (let step = 1; step <= 8; step++)
      await tablet.mouse.move(back.x, back.y + ((top.y - back.y) * step) / 8)
    await tablet.mouse.up()
    // The page says when the move is saved; a move asked for while one is saving is not taken.
    await shows(tablet.getByRole('status'), `${before[0]} is now stop 1 of ${before.length}.`)
    await expect.poll(planOrder).toEqual(before)

    // The buttons and Alt+arrows still move a stop by keyboard.
    await row(before[1] ?? '')
      .getByRole('button', { name: /^Down: move/ })
      .press('Alt+ArrowUp')
    await shows(tablet.getByRole('status'), `${before[1]} is now stop 1 of ${before.length}.`)
    await expect.poll(planOrder).toEqual([before[1], before[0], ...before.slice(2)])
    await row(before[1] ?? '')
      .getByRole('button', { name: /^Down: move/ })
      .click()
    await shows(tablet.getByRole('status'), `${before[1]} is now stop 2 of ${before.length}.`)
    await expect.poll(planOrder).toEqual(before)
    await expectAccessible(tablet, '#main')
    await screenshot(tablet, 'touch-02-plan-reordered')
  })
})

describe("the driver's stops by keyboard, with the phone's position", () => {
  it('saves the position with arrived, delivered and failed, and a signature typed as the name', async () => {
    await core('POST', `/api/v1/plans/${morning.id}/schedule`)
    await core('POST', `/api/v1/plans/${morning.id}/dispatch`)
    const plan = await core<PlanStops>('GET', `/api/v1/plans/${morning.id}`)
    const [first, second] = [...plan.shipments].sort(
      (a, b) => (a.stopSequence ?? 0) - (b.stopSequence ?? 0),
    ) as [PlanStops['shipments'][number], PlanStops['shipments'][number]]

    await phone.goto(`${server.core}/#/delivery/plans/${morning.id}/driver`)
    await phone.getByRole('heading', { level: 1, name: `Stops of ${morning.code}` }).waitFor()
    // The site may already know where the phone is: the driver sees it on the map with the stops.
    const map = phone.getByRole('region', {
      name: /^Map of .*: where you are \(the blue dot\) and \d+ numbered stops/,
    })
    const dot = map.getByRole('img', { name: 'You are here' })
    await dot.waitFor()
    await shows(phone.locator('.map-position'), /You are the blue dot, to within \d+ m\./)
    expect(await map.locator('.stop-marker').count()).toBe(plan.shipments.length)
    const box = (await map.boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 }
    const seen = await centre(dot)
    expect(seen.x).toBeGreaterThan(box.x)
    expect(seen.x).toBeLessThan(box.x + box.width)
    expect(seen.y).toBeGreaterThan(box.y)
    expect(seen.y).toBeLessThan(box.y + box.height)
    await expectAccessible(phone)
    await screenshot(phone, 'touch-03-driver-map-position')
    const current = phone.locator('li[aria-current="step"]')
    await shows(current, first.code)
    await current.getByRole('button', { name: 'Arrived', exact: true }).press('Enter')
    await shows(current, /Arrived \d{1,2}:\d{2}/)

    // Everything from here by keyboard: the typed signature instead of a drawing.
    await current.getByRole('button', { name: 'Delivered', exact: true }).press('Enter')
    const form = phone.getByRole('form', { name: `Delivered ${first.code}` })
    await form.getByLabel('Received by').fill('Thandi Mokoena')
    await form.getByRole('radio', { name: 'Drawn on the screen' }).focus()
    await phone.keyboard.press('ArrowDown')
    expect(await form.getByRole('radio', { name: 'Typed with the keyboard' }).isChecked()).toBe(true)
    await form.getByRole('button', { name: 'Confirm delivery' }).press('Enter')
    const typed = form.getByLabel('Typed signature')
    await expect.poll(() => typed.getAttribute('aria-invalid')).toBe('true')
    await shows(form.locator('.problem'), 'Type the recipient’s name as their signature.')
    await expectAccessible(phone)

    await typed.focus()
    await phone.keyboard.type('T. Mokoena')
    await form.getByRole('img', { name: 'Signature typed: T. Mokoena' }).waitFor()
    await expectAccessible(phone)
    await screenshot(phone, 'touch-03-typed-signature')
    await typed.press('Enter')
    await shows(phone.getByRole('status'), `1 of ${plan.shipments.length} stops done`)

    const proof = await core<{ status: string; operations: Operation[] }>(
      'GET',
      `/api/v1/shipments/${first.id}/proof`,
    )
    expect(proof.status).toBe('Delivered')
    expect(proof.operations.map((o) => [o.kind, o.latitude, o.longitude])).toEqual([
      ['Arrived', PHONE_AT.latitude, PHONE_AT.longitude],
      ['Delivered', PHONE_AT.latitude, PHONE_AT.longitude],
    ])
    expect(proof.operations[1]?.recipientName).toBe('Thandi Mokoena')
    // The typed name is stored as the same kind of image a drawn signature is.
    const signature = await fetch(`${server.core}/api/files/${proof.operations[1]?.signatureFileId}`, {
      headers: { authorization: `Bearer ${token}`, 'x-business-id': server.businessId },
    })
    expect(signature.headers.get('content-type')).toBe('image/png')
    expect((await signature.arrayBuffer()).byteLength).toBeGreaterThan(1000)

    // The next stop fails somewhere else: the position saved is where the phone is then.
    const elsewhere = { latitude: -33.9155, longitude: 18.3885 }
    await phone.context().setGeolocation(elsewhere)
    // The dot follows the phone (westwards here: -33.9155, 18.3885 from -33.9195, 18.4172).
    await expect.poll(async () => (await centre(dot)).x < seen.x - 5).toBe(true)
    const next = phone.locator('li[aria-current="step"]')
    await shows(next, second.code)
    await next.getByRole('button', { name: 'Failed', exact: true }).press('Enter')
    const failed = phone.getByRole('form', { name: `Failed ${second.code}` })
    await failed.getByLabel('Reason').fill('Closed for stocktaking')
    await failed.getByRole('button', { name: 'Confirm failed delivery' }).press('Enter')
    await shows(phone.getByRole('status'), `2 of ${plan.shipments.length} stops done`)
    const failure = await core<{ operations: Operation[] }>('GET', `/api/v1/shipments/${second.id}/proof`)
    expect(failure.operations.at(-1)).toMatchObject({ kind: 'Failed', ...elsewhere })
    await expectAccessible(phone)
  })
})

describe('a confirmed sales order', () => {
  it('is edited from its page: a short line refused at its quantity, then saved and still reserved', async () => {
    const [granola] = await core<Product[]>('GET', '/api/v1/products?Page=1&PageSize=5&$search=SA-GRANOLA')
    const [customer] = await core<{ id: string }[]>(
      'GET',
      '/api/v1/Customers?Page=1&PageSize=1&$orderby=name',
    )
    const draft = await core<Order>('POST', '/api/v1/orders', {
      customerId: customer?.id,
      lines: [
        { productId: granola?.id, quantity: 1, unitPrice: 89.5 },
        { description: 'Breakfast hamper', quantity: 1, unitPrice: 450 },
      ],
    })
    await core('POST', `/api/v1/orders/${draft.id}/confirm`)
    await core('PATCH', '/api/settings/business', { 'orders.shortConfirmation': 'Refuse' })

    await tablet.goto(`${server.core}/#/orders/${draft.id}`)
    await tablet.getByRole('heading', { level: 1, name: `Sales order ${draft.code}` }).waitFor()
    const badge = tablet.locator('.page-header .badge')
    await shows(badge, 'Confirmed')
    await tablet.getByRole('button', { name: 'Edit order' }).click()
    const edit = tablet.getByRole('form', { name: `Edit order ${draft.code}` })
    const quantity = tablet.getByLabel('Line 1 quantity')
    expect(await quantity.inputValue()).toBe('1')

    // More jars than the business has: the API refuses, and says so at the line's quantity.
    await quantity.fill('50000')
    await edit.getByRole('button', { name: 'Save order' }).click()
    await expect.poll(() => quantity.getAttribute('aria-invalid')).toBe('true')
    const problemId = (await quantity.getAttribute('aria-describedby'))?.split(' ').pop() ?? ''
    expect(await tablet.locator(`[id="${problemId}"]`).textContent()).toMatch(
      /^short by \d+ \(\d+ available\)$/,
    )
    await expectAccessible(tablet, `form[aria-label="Edit order ${draft.code}"]`)
    await screenshot(tablet, 'touch-04-confirmed-order-refused')
    expect((await core<Order>('GET', `/api/v1/orders/${draft.id}`)).lines.map((l) => l.quantity)).toEqual([
      1, 1,
    ])

    await quantity.fill('2')
    await tablet.getByLabel('Line 2 quantity').fill('3')
    await edit.getByRole('button', { name: 'Save order' }).click()
    await edit.waitFor({ state: 'detached' })
    await shows(badge, 'Confirmed')
    const saved = await core<Order>('GET', `/api/v1/orders/${draft.id}`)
    expect(saved.status).toBe('Confirmed')
    expect(saved.lines.map((l) => l.quantity)).toEqual([2, 3])
    // The confirmed order holds stock for the line as it is now.
    const held = await core<{ lines: { lineNumber: number; reserved: number }[] }>(
      'GET',
      `/api/v1/orders/${draft.id}/reservations`,
    )
    expect(held.lines.find((l) => l.lineNumber === 1)?.reserved).toBe(2)
    const lines = tablet.getByRole('table', { name: /^Lines of ORD-/ })
    await expect
      .poll(async () => (await lines.getByRole('row').nth(1).getByRole('cell').nth(3).textContent())?.trim())
      .toBe(`2 ${granola?.unitOfMeasure}`)
    await expectAccessible(tablet, '#main')
  })
})
