import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seriousAxeFindings } from './axe.js'
import { api, launchChromium, nav, openPage, screenshot, shows, signIn } from './browser.js'
import { type DemoServer, startDemoServer } from './server.js'

// Order to door in the console, in Debian's Chromium, on the demo organisation (`cartage seed
// --demo`: confirmed orders holding jars of granola, an early run dispatched with two stops
// delivered and one failed, one return received). One signed-in page walks through it as a
// person would; the test reads the API itself only to know what the screens must say.

let server: DemoServer
let browser: Browser
let page: Page
let errors: string[]
let core: Awaited<ReturnType<typeof api>>['core']

interface Product {
  id: string
  sku: string
  unitOfMeasure: string
}
interface Order {
  id: string
  code: string
  status: string
  customerId: string
}

let granola: Product
/** The delivered shipment the return test takes a jar back from (one jar of it is left). */
let returnedFrom = ''

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startDemoServer(), launchChromium()])
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  ;({ page, errors } = await openPage(context))
  ;({ core } = await api(server))
  const found = await core<Product[]>('GET', `/api/v1/products?Page=1&PageSize=5&$search=SA-GRANOLA`)
  granola = found[0] as Product
  await signIn(page, server)
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail')
    await screenshot(page, `o2d-failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => undefined)
  expect(errors.splice(0)).toEqual([])
})

const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name })
const badge = () => page.locator('.page-header .badge')
const alert = () => page.getByRole('alert')
const open = (route: string) => page.goto(`${server.core}/#${route}`)

/** The text of one cell of a table (row 1 is the first after the header). */
const cell = async (table: Locator, row: number, column: number) =>
  ((await table.getByRole('row').nth(row).getByRole('cell').nth(column).textContent()) ?? '').trim()

/** Clicks a PDF button: the API answers a PDF, and the browser receives it as a file. */
async function downloadsPdf(button: Locator, path: RegExp) {
  const [response, download] = await Promise.all([
    page.waitForResponse((r) => path.test(new URL(r.url()).pathname)),
    page.waitForEvent('download'),
    button.click(),
  ])
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toMatch(/^application\/pdf/)
  expect(download.suggestedFilename()).toMatch(/\.pdf$/)
}

async function expectAccessible(selector?: string) {
  expect(await seriousAxeFindings(page, selector)).toEqual([])
}

async function draftOrder(quantity: number): Promise<Order> {
  const [customer] = await core<{ id: string }[]>('GET', '/api/v1/Customers?Page=1&PageSize=1&$orderby=name')
  return core<Order>('POST', '/api/v1/orders', {
    customerId: customer?.id,
    lines: [
      { productId: granola.id, quantity, unitPrice: 89.5 },
      { description: 'Breakfast hamper', quantity: 1, unitPrice: 450 },
    ],
  })
}

describe('sales order detail', () => {
  it('opens a confirmed order from the list, with what each line holds, and its delivery note', async () => {
    await nav(page, 'Sales orders')
    await heading('Sales orders').waitFor()
    await page.getByLabel('State').selectOption('Confirmed')
    const list = page.getByRole('table', { name: 'Sales orders' })
    await shows(list, 'Confirmed')
    await list.getByRole('link', { name: /^ORD-/ }).first().click()
    await heading(/^Sales order ORD-/).waitFor()
    const orderId = page.url().split('/').pop() ?? ''
    const held = await core<{ lines: { lineNumber: number; reserved: number; ordered: number }[] }>(
      'GET',
      `/api/v1/orders/${orderId}/reservations`,
    )
    const jars = held.lines[0]
    expect(jars?.reserved).toBeGreaterThan(0)
    const lines = page.getByRole('table', { name: /^Lines of ORD-/ })
    await shows(lines, 'SA-GRANOLA')
    // Line, product, ordered, reserved, backordered, shipped: in the product's unit.
    await expect.poll(() => cell(lines, 1, 3)).toBe(`${jars?.reserved} ${granola.unitOfMeasure}`)
    expect(await cell(lines, 1, 4)).toBe(`0 ${granola.unitOfMeasure}`)
    expect(await cell(lines, 1, 5)).toBe(`0 ${granola.unitOfMeasure}`)
    // The hamper is a description: it holds nothing.
    expect(await cell(lines, 2, 3)).toBe('—')
    await expect.poll(() => page.getByRole('button', { name: 'Confirm (reserve stock)' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Mark fulfilled' }).waitFor()

    const shipments = page.getByRole('table', { name: /^Shipments of ORD-/ })
    const note = shipments.getByRole('button', { name: /^Delivery note of SHP-.+ \(PDF\)$/ }).first()
    await note.waitFor()
    await downloadsPdf(note, /\/api\/v1\/shipments\/[^/]+\/delivery-note$/)
    await expectAccessible()
    await screenshot(page, 'o2d-01-order')
  })

  it('refuses a short confirmation in words at the short line, then cancels the draft', async () => {
    await core('PATCH', '/api/settings/business', { 'orders.shortConfirmation': 'Refuse' })
    try {
      const order = await draftOrder(5000)
      await open(`/orders/${order.id}`)
      await heading(`Sales order ${order.code}`).waitFor()
      await shows(badge(), 'Draft')
      await page.getByRole('button', { name: 'Confirm (reserve stock)' }).click()
      await shows(alert(), 'Not enough stock')
      await shows(alert(), 'Order less of the lines named')
      await shows(page.getByTestId('line-problem-1'), /^short by \d+ \(\d+ available\)$/)
      expect(await page.getByTestId('line-problem-2').count()).toBe(0)
      await shows(badge(), 'Draft')
      await screenshot(page, 'o2d-02-short')

      await page.getByRole('button', { name: 'Cancel order' }).click()
      await shows(badge(), 'Cancelled')
      expect(await page.getByRole('button', { name: 'Confirm (reserve stock)' }).count()).toBe(0)
      expect(await page.getByTestId('line-problem-1').count()).toBe(0)
    } finally {
      await core('PATCH', '/api/settings/business', { 'orders.shortConfirmation': 'Backorder' })
    }
  })

  it('confirms a draft, which then holds its stock', async () => {
    const order = await draftOrder(1)
    await open(`/orders/${order.id}`)
    await heading(`Sales order ${order.code}`).waitFor()
    const lines = page.getByRole('table', { name: /^Lines of ORD-/ })
    await shows(lines, 'SA-GRANOLA')
    expect(await cell(lines, 1, 3)).toBe('—')
    await page.getByRole('button', { name: 'Confirm (reserve stock)' }).click()
    await shows(badge(), 'Confirmed')
    await expect.poll(() => cell(lines, 1, 3)).toBe(`1 ${granola.unitOfMeasure}`)
    const held = await core<{ lines: { reserved: number }[] }>(
      'GET',
      `/api/v1/orders/${order.id}/reservations`,
    )
    expect(held.lines[0]?.reserved).toBe(1)
  })
})

describe('returns', () => {
  it('requests a return of a delivered shipment, refuses too many at the line, and receives it', async () => {
    // A delivered shipment whose order has no return yet (the demo returned a jar of the first).
    const delivered = await core<{ id: string; code: string; orderId: string }[]>(
      'GET',
      `/api/v1/shipments?Page=1&PageSize=20&$filter=${encodeURIComponent("status eq 'Delivered'")}`,
    )
    let target: { id: string; code: string; orderId: string } | undefined
    for (const shipment of delivered) {
      const returns = await core<unknown[]>(
        'GET',
        `/api/v1/orders/${shipment.orderId}/returns?Page=1&PageSize=5`,
      )
      if (returns.length === 0) target = shipment
    }
    if (!target) throw new Error('the demo has no delivered shipment without a return')
    returnedFrom = target.id
    const lines = await core<{ lines: { quantity: number }[] }>('GET', `/api/v1/shipments/${target.id}/lines`)
    const deliveredJars = lines.lines.reduce((sum, line) => sum + line.quantity, 0)

    await open(`/orders/${target.orderId}`)
    await heading(/^Sales order ORD-/).waitFor()
    await page.getByRole('button', { name: `Return goods of ${target.code}` }).click()
    const form = page.getByRole('form', { name: `Return goods of ${target.code}` })
    const jars = form.getByLabel(/^Quantity of SA-GRANOLA/)
    await jars.fill(String(deliveredJars + 3))
    await form.getByLabel('Reason').fill('Wrong flavour')
    await form.getByRole('button', { name: 'Request return' }).click()
    await shows(form.locator('.field .problem'), `at most ${deliveredJars} can be returned`)
    expect(await jars.getAttribute('aria-invalid')).toBe('true')
    await shows(alert(), 'Some values were not accepted')
    await expectAccessible()
    await screenshot(page, 'o2d-03-return-refused')

    await jars.fill('1')
    await form.getByRole('button', { name: 'Request return' }).click()
    await heading(/^Return RMA-\d+$/).waitFor()
    await shows(badge(), 'Requested')
    await shows(page.getByTestId('return-value'), 'not credited yet')
    const items = page.getByRole('table', { name: /^Lines of RMA-/ })
    await shows(items, 'SA-GRANOLA')
    expect(await cell(items, 1, 2)).toBe(`1 ${granola.unitOfMeasure}`)
    await expectAccessible()
    await page.getByRole('button', { name: 'Receive', exact: true }).click()
    await shows(badge(), 'Received')
    await shows(page.getByTestId('return-value'), 'credited on the order')
    expect(await page.getByRole('button', { name: 'Cancel return' }).count()).toBe(0)
    const number = ((await heading(/^Return RMA-/).textContent()) ?? '').replace('Return ', '')
    await screenshot(page, 'o2d-04-return-received')

    // The order: its return credited, and the credit in its figures.
    await page.getByRole('link', { name: /^ORD-/ }).click()
    await heading(/^Sales order ORD-/).waitFor()
    const returns = page.getByRole('table', { name: /^Returns of ORD-/ })
    await shows(returns, number)
    await shows(returns, '(credited)')
    await shows(page.getByTestId('order-returned-value'), '89.50')

    // The list, its state in the address.
    await nav(page, 'Returns')
    await heading('Returns').waitFor()
    await page.getByLabel('State').selectOption('Received')
    await expect.poll(() => page.url()).toContain('status=Received')
    const list = page.getByRole('table', { name: 'Returns' })
    await shows(list, number)
    expect(await list.getByRole('row').count()).toBe(3) // the header, the demo's return and this one
    await page.reload()
    await shows(page.getByRole('table', { name: 'Returns' }), number)
    expect(await page.getByLabel('State').inputValue()).toBe('Received')
    await expectAccessible()
  })

  it('cancels a return, which frees its goods to be written off by another', async () => {
    const request = () =>
      core<{ id: string; number: string }>('POST', '/api/v1/returns', {
        shipmentId: returnedFrom,
        reason: 'Seal broken',
        lines: [{ productId: granola.id, quantity: 1 }],
      })
    const first = await request()
    await open(`/returns/${first.id}`)
    await heading(`Return ${first.number}`).waitFor()
    await page.getByRole('button', { name: 'Cancel return' }).click()
    await shows(badge(), 'Cancelled')
    expect(await page.getByRole('button', { name: 'Receive', exact: true }).count()).toBe(0)

    // The cancelled jar may come back again: written off this time, credited with nothing in stock.
    const second = await request()
    await open(`/returns/${second.id}`)
    await heading(`Return ${second.number}`).waitFor()
    await page.getByRole('button', { name: /^Write off/ }).click()
    await shows(badge(), 'Written off')
    await shows(page.getByTestId('return-value'), 'credited on the order')
    expect(await page.getByRole('button', { name: /^Write off/ }).count()).toBe(0)
  })

  it('explains a return that does not exist', async () => {
    await open('/returns/00000000-0000-4000-8000-000000000000')
    await shows(alert(), 'Not found')
    await page.getByRole('link', { name: 'Back to returns' }).waitFor()
  })
})

describe('availability', () => {
  it("shows a product's availability and what can be promised by a day", async () => {
    const a = await core<{ onHand: number; reserved: number; available: number; backordered: number }>(
      'GET',
      `/api/v1/products/${granola.id}/availability`,
    )
    await nav(page, 'Products and stock')
    await page.getByLabel('Search').fill('granola')
    await page.getByRole('link', { name: 'Honey granola (jar)' }).click()
    await heading('Honey granola (jar)').waitFor()
    const figures = page.getByTestId('availability')
    const unit = granola.unitOfMeasure
    await shows(figures, `Reserved${a.reserved} ${unit}`)
    expect(await figures.textContent()).toBe(
      `On hand${a.onHand} ${unit}Reserved${a.reserved} ${unit}Available${a.available} ${unit}Backordered${a.backordered} ${unit}`,
    )
    await page.getByRole('table', { name: 'Incoming stock, earliest first' }).waitFor()

    const promise = page.getByRole('form', { name: 'Can we promise it?' })
    await promise.getByLabel(`Quantity to promise (${unit})`).fill('0')
    await promise.getByRole('button', { name: 'Check' }).click()
    await shows(promise.locator('.field .problem'), 'A quantity above 0.')
    await promise.getByLabel(`Quantity to promise (${unit})`).fill('1')
    await promise.getByRole('button', { name: 'Check' }).click()
    await shows(page.getByTestId('promise'), `Yes: 1 ${unit} can be promised by`)
    await promise.getByLabel(`Quantity to promise (${unit})`).fill('100000')
    await promise.getByRole('button', { name: 'Check' }).click()
    await shows(page.getByTestId('promise'), /^Not by .+100,000/)
    await expectAccessible('#main')
    await screenshot(page, 'o2d-05-availability')
  })
})

describe('plan', () => {
  it("shows a plan's pick list by product and by stop, and downloads its PDFs", async () => {
    await nav(page, 'Delivery')
    const plans = page.getByRole('table', { name: "Today's plans" })
    await shows(plans, 'Early run')
    await plans
      .getByRole('row', { name: /Early run/ })
      .getByRole('link')
      .first()
      .click()
    await heading(/Early run$/).waitFor()
    const planId = page.url().split('/').pop() ?? ''
    const pick = await core<{
      byProduct: { sku: string; quantity: number; stops: number }[]
      byStop: { code: string; stopSequence: number }[]
    }>('GET', `/api/v1/plans/${planId}/pick-list`)
    const jars = pick.byProduct.find((row) => row.sku === 'SA-GRANOLA')
    expect(jars?.stops).toBe(3)

    const section = page.getByRole('region', { name: 'Pick list', exact: true })
    const byProduct = section.getByRole('table', { name: /by product$/ })
    await shows(byProduct, 'SA-GRANOLA')
    expect(await cell(byProduct, 1, 2)).toBe(`${jars?.quantity} ${granola.unitOfMeasure}`)
    expect(await cell(byProduct, 1, 3)).toBe('3')

    await section.getByLabel('By stop').check()
    const first = pick.byStop[0]
    await section
      .getByRole('heading', { name: new RegExp(`^Stop ${first?.stopSequence}: ${first?.code}`) })
      .waitFor()
    await shows(section.getByRole('table', { name: new RegExp(`\\(${first?.code}\\)`) }), 'Box 1')
    await expectAccessible('#main section[aria-labelledby="pl-pick"]')
    await screenshot(page, 'o2d-06-pick-list')

    await downloadsPdf(section.getByRole('button', { name: 'Pick list (PDF)' }), /\/pick-list\.pdf$/)
    await downloadsPdf(section.getByRole('button', { name: 'Route sheet (PDF)' }), /\/route-sheet$/)
  })
})

// The jobs of a working day on lists: orders written and changed in the console, rows chosen and
// acted on together, one search for everything, and views of a list kept under a name.

/** The problem shown at a labelled control (Field ties it through aria-describedby). */
async function problemAt(label: string | RegExp) {
  const control = page.getByLabel(label, { exact: typeof label === 'string' })
  await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true')
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ')
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"].problem`).allTextContents()))
  return texts.flat().join(' ')
}

/** Picks a suggestion of a combobox by typing and the keyboard: Down, then Enter. */
async function pick(label: string, text: string, option: string | RegExp) {
  const box = page.getByRole('combobox', { name: label })
  await box.fill(text)
  await page.getByRole('option', { name: option }).first().waitFor()
  await box.press('ArrowDown')
  await box.press('Enter')
}

describe('writing sales orders', () => {
  it('creates a draft of two lines, its customer and product picked by keyboard, a refused date at its field', async () => {
    await open('/orders')
    await heading('Sales orders').waitFor()
    await page.getByRole('button', { name: 'New order' }).click()
    const form = page.getByRole('form', { name: 'New order' })
    await pick('Customer', 'Bree', 'Bree Street Deli')
    await pick('Line 1 product', 'GRANOLA', /SA-GRANOLA/)
    await page.getByLabel('Line 1 quantity').fill('2')
    await page.getByLabel('Line 1 unit price').fill('89.5')
    await form.getByRole('button', { name: 'Add a line' }).click()
    await page.getByLabel('Line 2 description').fill('Gift wrapping')
    await page.getByLabel('Line 2 quantity').fill('1')
    await page.getByLabel('Line 2 unit price').fill('20')
    await page.getByLabel('Order date').fill('2040-01-01')
    await expectAccessible('form[aria-label="New order"]')
    await form.getByRole('button', { name: 'Create draft order' }).click()
    // The API refuses a date ten years ahead; the reason shows at the date, and nothing was created.
    expect(await problemAt('Order date')).not.toBe('')
    await shows(alert(), 'orderDate')
    await screenshot(page, 'jobs-01-order-refused')

    await page.getByLabel('Order date').fill(new Date().toISOString().slice(0, 10))
    await form.getByRole('button', { name: 'Create draft order' }).click()
    await heading(/^Sales order ORD-/).waitFor()
    await shows(badge(), 'Draft')
    const lines = page.getByRole('table', { name: /^Lines of ORD-/ })
    await shows(lines, 'SA-GRANOLA')
    await shows(lines, 'Gift wrapping')
    expect(await cell(lines, 1, 2)).toBe(`2 ${granola.unitOfMeasure}`)
  })

  it('edits the draft’s lines, with a refused quantity at its line, and confirms it from its page', async () => {
    const lines = page.getByRole('table', { name: /^Lines of ORD-/ })
    await page.getByRole('button', { name: 'Edit order' }).click()
    const edit = page.getByRole('form', { name: /^Edit order ORD-/ })
    expect(await page.getByRole('combobox', { name: 'Customer' }).inputValue()).toBe('Bree Street Deli')
    await page.getByLabel('Line 2 quantity').fill('1.123456')
    await edit.getByRole('button', { name: 'Save order' }).click()
    expect(await problemAt('Line 2 quantity')).toBe('must have at most 4 decimal places')
    await page.getByLabel('Line 2 quantity').fill('3')
    await edit.getByRole('button', { name: 'Save order' }).click()
    await edit.waitFor({ state: 'detached' })
    await expect.poll(() => cell(lines, 2, 2)).toBe('3')
    const orderId = page.url().split('/').pop() ?? ''
    const saved = await core<{ lines: { quantity: number; description: string | null }[] }>(
      'GET',
      `/api/v1/orders/${orderId}`,
    )
    expect(saved.lines.map((l) => l.quantity)).toEqual([2, 3])

    await page.getByRole('button', { name: 'Confirm (reserve stock)' }).click()
    await shows(badge(), 'Confirmed')
    await screenshot(page, 'jobs-02-order-confirmed')
  })
})

describe('acting on chosen rows', () => {
  it('confirms the chosen drafts and names the one that could not be', async () => {
    const [first, second] = [await draftOrder(1), await draftOrder(1)] as [Order, Order]
    await core('PUT', `/api/v1/orders/${first.id}`, {
      customerId: first.customerId,
      notes: 'bulk-e2e',
      lines: [{ productId: granola.id, quantity: 1, unitPrice: 89.5 }],
    })
    await core('PUT', `/api/v1/orders/${second.id}`, {
      customerId: second.customerId,
      notes: 'bulk-e2e',
      lines: [{ productId: granola.id, quantity: 1, unitPrice: 89.5 }],
    })
    await open('/orders?q=bulk-e2e')
    const list = page.getByRole('table', { name: 'Sales orders' })
    await shows(list, second.code)
    await list.getByRole('checkbox', { name: 'Choose all on this page' }).check()
    await shows(page.getByRole('toolbar', { name: 'Act on the chosen orders' }), '2 orders chosen')
    await expectAccessible('#main')
    // Meanwhile someone cancels the first: the console confirms the other and says which failed.
    await core('POST', `/api/v1/orders/${first.id}/cancel`)
    await page.getByRole('button', { name: 'Confirm the chosen drafts' }).click()
    await shows(alert(), '1 confirmed, 1 failed:')
    await shows(alert().getByRole('listitem'), first.code)
    const after = await core<Order>('GET', `/api/v1/orders/${second.id}`)
    expect(after.status).toBe('Confirmed')
    await screenshot(page, 'jobs-03-bulk-orders')
  })

  it('puts the chosen shipments onto a plan and names the one already on another', async () => {
    const [customer] = await core<{ id: string }[]>(
      'GET',
      '/api/v1/Customers?Page=1&PageSize=1&$orderby=name',
    )
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const shipment = () =>
      core<{ id: string; code: string }>('POST', '/api/v1/shipments', {
        customerId: customer?.id,
        notes: 'bulk-e2e',
        deliveryAddress: {
          fullAddress: '112 Bree Street, Cape Town',
          latitude: -33.9195,
          longitude: 18.4172,
        },
        weight: 5,
        scheduledDate: `${tomorrow}T08:00:00Z`,
      })
    const [a, b] = [await shipment(), await shipment()]
    const plan = await core<{ id: string; code: string }>('POST', '/api/v1/plans', {
      name: 'Bulk run',
      scheduledDate: tomorrow,
    })
    const other = await core<{ id: string }>('POST', '/api/v1/plans', {
      name: 'Other run',
      scheduledDate: tomorrow,
    })
    await open('/delivery/shipments?q=bulk-e2e')
    const list = page.getByRole('table', { name: 'Shipments' })
    await shows(list, b.code)
    await list.getByRole('checkbox', { name: `Choose ${a.code}` }).check()
    await list.getByRole('checkbox', { name: `Choose ${b.code}` }).check()
    const bar = page.getByRole('toolbar', { name: 'Act on the chosen shipments' })
    await shows(bar, '2 shipments chosen')
    await bar.getByLabel('Plan')
    const planOption = bar.getByLabel('Plan').locator('option', { hasText: plan.code })
    await planOption.waitFor({ state: 'attached' })
    await bar.getByLabel('Plan').selectOption((await planOption.getAttribute('value')) ?? '')
    await core('POST', `/api/v1/plans/${other.id}/shipments`, { shipmentId: b.id })
    await bar.getByRole('button', { name: 'Put onto the plan' }).click()
    await shows(alert(), '1 put onto the plan, 1 failed:')
    await shows(alert().getByRole('listitem'), b.code)
    const onPlan = await core<{ deliveryPlanId: string | null }>('GET', `/api/v1/shipments/${a.id}`)
    expect(onPlan.deliveryPlanId).toBe(plan.id)
    await expectAccessible('#main')
    await screenshot(page, 'jobs-04-bulk-shipments')
  })

  it('marks the chosen notifications read', async () => {
    const unread = await core<{ id: string }[]>(
      'GET',
      '/api/notifications/user?includeRead=false&Page=1&PageSize=100',
    )
    expect(unread.length).toBeGreaterThan(0)
    await open('/notifications')
    await heading('Notifications').waitFor()
    await page.getByRole('checkbox', { name: 'Choose all on this page' }).check()
    await page.getByRole('button', { name: 'Mark the chosen read' }).click()
    await shows(
      page.getByRole('status').filter({ hasText: 'changed' }),
      `${Math.min(unread.length, 20)} changed.`,
    )
    const left = await core<{ id: string }[]>(
      'GET',
      '/api/notifications/user?includeRead=false&Page=1&PageSize=100',
    )
    expect(left.length).toBe(Math.max(unread.length - 20, 0))
    await expectAccessible('#main')
  })
})

describe('global search', () => {
  it('finds a customer and an order from anywhere by keyboard, and says when nothing matches', async () => {
    await open('/')
    await heading('Dashboard').waitFor()
    await page.locator('body').press('/')
    const box = page.getByRole('combobox', { name: 'Find anything' })
    await expect.poll(() => box.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
    await box.fill('Bree')
    await page.getByRole('option', { name: /^Bree Street Deli\s*Customers$/ }).waitFor()
    expect(await box.getAttribute('aria-expanded')).toBe('true')
    await expectAccessible('.global-search')
    await box.press('ArrowDown')
    const active = await box.getAttribute('aria-activedescendant')
    expect(await page.locator(`[id="${active}"]`).textContent()).toContain('Bree Street Deli')
    await box.press('Enter')
    await heading('Bree Street Deli').waitFor()

    const [order] = await core<Order[]>('GET', '/api/v1/orders?Page=1&PageSize=1&$orderby=code')
    await page.keyboard.press('Control+K')
    await box.fill(order?.code ?? '')
    await page.getByRole('option', { name: new RegExp(`^${order?.code}\\s*Sales orders`) }).waitFor()
    await box.press('Enter')
    await heading(`Sales order ${order?.code}`).waitFor()

    await page.keyboard.press('Control+K')
    await box.fill('zzqx-nothing')
    await shows(page.locator('.global-search [role="status"]'), 'Nothing found for “zzqx-nothing”.')
    await box.press('Escape')
    expect(await box.getAttribute('aria-expanded')).toBe('false')
    await screenshot(page, 'jobs-05-search')
  })
})

describe('saved views', () => {
  it('keeps a list’s filters under a name and reopens them, after a reload too', async () => {
    await open('/orders')
    await heading('Sales orders').waitFor()
    await page.getByRole('button', { name: 'Save view' }).click()
    expect(await problemAt('View name')).toBe('Name the view.')
    await page.getByLabel('State').selectOption('Draft')
    await expect.poll(() => page.url()).toContain('status=Draft')
    await page.getByLabel('View name').fill('Drafts to confirm')
    await page.getByRole('button', { name: 'Save view' }).click()
    const views = page.getByRole('navigation', { name: 'Saved views' })
    await views.getByRole('link', { name: 'Drafts to confirm' }).waitFor()
    await expectAccessible('#main search')

    await open('/orders')
    await page.reload()
    await heading('Sales orders').waitFor()
    expect(await page.getByLabel('State').inputValue()).toBe('')
    await views.getByRole('link', { name: 'Drafts to confirm' }).click()
    await expect.poll(() => page.url()).toContain('status=Draft')
    expect(await page.getByLabel('State').inputValue()).toBe('Draft')
    // A view belongs to its list: the shipments list has none.
    await open('/delivery/shipments')
    await heading('Shipments').waitFor()
    expect(await views.count()).toBe(0)
    await screenshot(page, 'jobs-06-saved-views')
  })
})

describe('a plan’s stops in the dispatcher’s order', () => {
  it('moves stops by keyboard, by button and by drag, each saved, and says why a move was refused', async () => {
    const [customer] = await core<{ id: string }[]>(
      'GET',
      '/api/v1/Customers?Page=1&PageSize=1&$orderby=name',
    )
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
    const stops: { id: string; code: string }[] = []
    for (const [i, address] of [
      '8 Kloof Street, Gardens',
      '45 Main Road, Sea Point',
      '3 Main Road, Claremont',
    ].entries())
      stops.push(
        await core('POST', '/api/v1/shipments', {
          customerId: customer?.id,
          deliveryAddress: { fullAddress: address, latitude: -33.93 + i / 100, longitude: 18.41 },
          weight: 3,
          scheduledDate: `${day}T08:00:00Z`,
        }),
      )
    const [a, b, c] = stops as [
      { id: string; code: string },
      { id: string; code: string },
      { id: string; code: string },
    ]
    const plan = await core<{ id: string; code: string }>('POST', '/api/v1/plans', {
      name: 'Reordered run',
      scheduledDate: day,
      shipmentIds: [a.id, b.id, c.id],
    })
    const order = async () =>
      (await core<{ shipments: { id: string }[] }>('GET', `/api/v1/plans/${plan.id}`)).shipments.map(
        (s) => s.id,
      )
    await open(`/delivery/plans/${plan.id}`)
    await heading(/Reordered run$/).waitFor()
    const table = page.getByRole('table', { name: `Stops of ${plan.code} in delivery order` })
    await shows(table, c.code)

    // Alt+Down on the first stop's button: saved, announced, and the keyboard stays on it.
    const down = table.getByRole('button', { name: `Down: move ${a.code} one stop later` })
    await down.focus()
    await down.press('Alt+ArrowDown')
    await shows(page.getByRole('status').filter({ hasText: 'is now stop' }), `${a.code} is now stop 2 of 3.`)
    await expect.poll(order).toEqual([b.id, a.id, c.id])
    await expect.poll(() => down.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
    await expect.poll(() => cell(table, 2, 1)).toBe(a.code)

    await table.getByRole('button', { name: `Up: move ${c.code} one stop earlier` }).click()
    await expect.poll(order).toEqual([b.id, c.id, a.id])
    await expectAccessible('#main section[aria-labelledby="pl-stops"]')

    await table
      .getByRole('row', { name: new RegExp(a.code) })
      .dragTo(table.getByRole('row', { name: new RegExp(b.code) }))
    await expect.poll(order).toEqual([a.id, b.id, c.id])
    await screenshot(page, 'jobs-07-stops')

    // Someone takes a stop off meanwhile: the move is refused, naming the list and the stranger.
    await core('DELETE', `/api/v1/plans/${plan.id}/shipments/${c.id}`)
    await table.getByRole('button', { name: `Down: move ${a.code} one stop later` }).click()
    await shows(alert(), 'shipmentIds')
    await shows(alert(), c.id)
    expect(await order()).toEqual([a.id, b.id])
  })
})
