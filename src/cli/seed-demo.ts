import { randomBytes } from 'node:crypto'
import type { HttpApp } from '../http/kernel.js'

/**
 * `cartage seed --demo`: a realistic organisation built through the public APIs, so the demo data
 * passes exactly the validation, permissions and events user data does: the apps of this process
 * (`inject`), or a running server's over HTTP (seed-command.ts decides which).
 */

export const DEMO_EMAIL = 'demo.owner@example.com'

export interface SeedResult {
  created: boolean
  email: string
  /** Only when created: it is stored as a hash and cannot be shown again. */
  password?: string
  businessId?: string
  branchId?: string
}

/** An API to seed through: an app in this process, or the base URL of a running server's. */
export type ApiTarget = HttpApp | string
export interface SeedTargets {
  core: ApiTarget
  global: ApiTarget
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Json = Record<string, unknown>

/** One request to an API, in-process or over HTTP; the body is JSON, or a multipart form (an upload). */
export async function send(
  target: ApiTarget,
  method: Method,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<{ statusCode: number; body: string }> {
  const { body, type } = await encoded(payload)
  const sent = type ? { ...headers, 'content-type': type } : headers
  if (typeof target !== 'string') {
    const response = await target.inject({
      method,
      url,
      headers: sent,
      ...(body === undefined ? {} : { payload: body }),
    })
    return { statusCode: response.statusCode, body: response.body }
  }
  const response = await fetch(new URL(url, target), {
    method,
    headers: sent,
    ...(body === undefined ? {} : { body }),
  })
  return { statusCode: response.status, body: await response.text() }
}

/** The request's body and its content type: a form as the platform's own Request encodes it, else JSON. */
async function encoded(payload: unknown): Promise<{ body?: string | Buffer; type?: string }> {
  if (payload === undefined) return {}
  if (!(payload instanceof FormData)) return { body: JSON.stringify(payload), type: 'application/json' }
  const request = new Request('http://seed.invalid/', { method: 'POST', body: payload })
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type') ?? '' }
}

const day = (offsetDays: number) => {
  const date = new Date()
  date.setUTCHours(0, 0, 0, 0)
  date.setUTCDate(date.getUTCDate() + offsetDays)
  return date
}
const iso = (offsetDays: number) => day(offsetDays).toISOString()

/** The demo business's currency and time zone: it trades in Cape Town. */
const CURRENCY = 'ZAR'
const TIME_ZONE = 'Africa/Johannesburg'
/** Today in the business's time zone, yyyy-mm-dd (its delivery day; UTC's differs from 22:00 UTC). */
const today = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date())

/** The head office as registered, and as replaced (PUT) with its currency and time zone. */
const HEAD_OFFICE = {
  registeredName: 'Table Mountain Provisions (Pty) Ltd',
  displayName: 'Table Mountain Provisions',
  email: 'ops@example.com',
  phoneNumber: '+27 21 555 0100',
  registrationNumber: '2026/123456/07',
  requiresDispatchBuilder: true,
  address: {
    fullAddress: '10 Dock Road, V&A Waterfront, Cape Town',
    city: 'Cape Town',
    country: 'ZA',
    latitude: -33.9036,
    longitude: 18.4207,
  },
}

/** A driver's signature as the app uploads it: a PNG (a 1x1 one will do for the demo). */
const SIGNATURE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/** A rectangle as a closed GeoJSON ring (longitude, latitude). */
const box = (west: number, south: number, east: number, north: number) => [
  [west, south],
  [east, south],
  [east, north],
  [west, north],
  [west, south],
]

const CAPE_TOWN_ZONES = [
  { name: 'City Bowl & Atlantic Seaboard', colour: '#1f77b4', ring: box(18.35, -33.98, 18.46, -33.89) },
  { name: 'Southern Suburbs', colour: '#ff7f0e', ring: box(18.42, -34.06, 18.52, -33.96) },
  { name: 'Northern Suburbs', colour: '#2ca02c', ring: box(18.5, -33.92, 18.72, -33.82) },
]

const STOPS = [
  { name: 'Bree Street Deli', address: '112 Bree Street, Cape Town', latitude: -33.9195, longitude: 18.4172 },
  { name: 'Sea Point Pantry', address: '45 Main Road, Sea Point', latitude: -33.9155, longitude: 18.3885 },
  { name: 'Gardens Grocer', address: '8 Kloof Street, Gardens', latitude: -33.9332, longitude: 18.4112 },
  { name: 'Claremont Kitchen', address: '3 Main Road, Claremont', latitude: -33.9803, longitude: 18.4651 },
  {
    name: 'Rondebosch Market',
    address: '20 Belmont Road, Rondebosch',
    latitude: -33.9626,
    longitude: 18.4735,
  },
  { name: 'Wynberg Wholesale', address: '14 Main Road, Wynberg', latitude: -34.0032, longitude: 18.4686 },
  {
    name: 'Bellville Traders',
    address: '9 Voortrekker Road, Bellville',
    latitude: -33.9001,
    longitude: 18.6292,
  },
  {
    name: 'Durbanville Farm Shop',
    address: '2 Wellington Road, Durbanville',
    latitude: -33.8321,
    longitude: 18.6474,
  },
]

export async function demoExists(global: ApiTarget, email = DEMO_EMAIL): Promise<boolean> {
  const url = `/api/organizations/soft-check?emailAddress=${encodeURIComponent(email)}`
  const response = await send(global, 'GET', url)
  if (response.statusCode !== 200) throw new Error(`soft-check: ${response.statusCode} ${response.body}`)
  return (JSON.parse(response.body) as { data: boolean }).data === true
}

/**
 * Whether the owner still signs in with this password (the one kept when the demo was created).
 * The session the check opens is ended at once.
 */
export async function canSignIn(global: ApiTarget, email: string, password: string): Promise<boolean> {
  const response = await send(global, 'POST', '/api/auth/login', { email, password })
  if (response.statusCode === 400 || response.statusCode === 401) return false
  if (response.statusCode !== 200)
    throw new Error(`POST /api/auth/login: ${response.statusCode} ${response.body}`)
  const token = (JSON.parse(response.body) as { data?: { session?: { accessToken?: string } } }).data?.session
    ?.accessToken
  if (token) await send(global, 'POST', '/api/auth/logout', undefined, { authorization: `Bearer ${token}` })
  return true
}

export async function seedDemo(
  apps: SeedTargets,
  progress: (line: string) => void = () => {},
  /** The owner's address; another one only lets tests seed a shared database more than once. */
  email = DEMO_EMAIL,
): Promise<SeedResult> {
  if (await demoExists(apps.global, email)) return { created: false, email }

  const started = Date.now()
  let steps = 0
  const step = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const result = await work()
    steps += 1
    progress(`[${String(steps).padStart(2)}] ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
    return result
  }
  const call = async <T = Json>(
    target: ApiTarget,
    method: Method,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> => {
    const response = await send(target, method, url, payload, headers)
    if (response.statusCode !== 200)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
    return (JSON.parse(response.body) as { data: T }).data
  }

  // Long enough to be strong, readable enough to type from a terminal.
  const password = `demo-${randomBytes(9).toString('base64url')}`
  const registered = await step('organisation, head office and owner', () =>
    call<{ id: string }>(apps.global, 'POST', '/api/organizations', {
      business: HEAD_OFFICE,
      user: {
        firstName: 'Thandi',
        lastName: 'Mokoena',
        email,
        phoneNumber: '+27 82 555 0100',
        password,
        confirmPassword: password,
        acceptedTerms: true,
      },
    }),
  )
  const businessId = registered.id
  try {
    return await fill()
  } catch (error) {
    // A second run would find the owner and stop: say plainly that this demo is not whole.
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n` +
        `the demo organisation (owner ${email}) is left incomplete; seed a fresh data directory or database`,
    )
  }

  async function fill(): Promise<SeedResult> {
    const login = await call<{ session: { accessToken: string } }>(apps.global, 'POST', '/api/auth/login', {
      email,
      password,
    })
    const auth = { authorization: `Bearer ${login.session.accessToken}`, 'x-business-id': businessId }
    const core = <T = Json>(method: Method, url: string, payload?: unknown) =>
      call<T>(apps.core, method, url, payload, auth)

    // Registration leaves the platform's defaults (USD, UTC); the branch below inherits these.
    await step(`head office in ${CURRENCY} and ${TIME_ZONE}`, () =>
      core('PUT', `/api/business/${businessId}`, { ...HEAD_OFFICE, currency: CURRENCY, timezone: TIME_ZONE }),
    )

    const branch = await step('branch business', () =>
      core<{ id: string }>('POST', '/api/business', {
        registeredName: 'Table Mountain Provisions Bellville',
        displayName: 'TMP Bellville',
        parentBusinessId: businessId,
      }),
    )

    const customers = await step('customer groups and customers with contacts', async () => {
      const wholesale = await core<{ id: string }>('POST', '/api/v1/CustomerGroups', {
        name: 'Wholesale',
        description: 'Trade buyers on account',
      })
      const retail = await core<{ id: string }>('POST', '/api/v1/CustomerGroups', {
        name: 'Retail',
        description: 'Shops paying on delivery',
      })
      const created: { id: string; stop: (typeof STOPS)[number] }[] = []
      for (const [index, stop] of STOPS.entries()) {
        const [first, last] = [
          ['Lerato', 'Dlamini'],
          ['Pieter', 'van Wyk'],
          ['Aisha', 'Davids'],
          ['Sipho', 'Ndlovu'],
        ][index % 4] as [string, string]
        const customer = await core<{ id: string }>('POST', '/api/v1/Customers', {
          name: stop.name,
          email: `orders@${stop.name.toLowerCase().replace(/[^a-z]+/g, '-')}.example.com`,
          phoneNumber: `+27 21 555 01${String(10 + index)}`,
          customerGroupId: index % 3 === 0 ? wholesale.id : retail.id,
          type: 'company',
          billingAddress: {
            fullAddress: stop.address,
            city: 'Cape Town',
            country: 'ZA',
            latitude: stop.latitude,
            longitude: stop.longitude,
          },
          notes: index % 3 === 0 ? 'Pays on 30 days' : null,
          contacts: [
            {
              firstName: first,
              lastName: last,
              email: `${first.toLowerCase()}@example.com`,
              role: 'Buyer',
              isPrimary: true,
            },
          ],
        })
        created.push({ id: customer.id, stop })
      }
      return created
    })

    const products = await step('products, with stock received 60 and 30 days ago', async () => {
      const make = (
        sku: string,
        name: string,
        type: string,
        reorderLevel: number | null = null,
        unit = 'Each',
      ) =>
        core<{ id: string }>('POST', '/api/v1/products', {
          sku,
          name,
          type,
          reorderLevel,
          unitOfMeasure: unit,
        })
      const flour = await make('RM-FLOUR', 'Stone-ground flour (kg)', 'RawMaterial', 20, 'kg')
      const honey = await make('RM-HONEY', 'Fynbos honey (kg)', 'RawMaterial', 5, 'kg')
      const oats = await make('RM-OATS', 'Rolled oats (kg)', 'RawMaterial', 20, 'kg')
      const jar = await make('PK-JAR', 'Glass jar 500 ml', 'RawMaterial', 50)
      const box = await make('PK-BOX', 'Gift box', 'RawMaterial', 10)
      const granola = await make('SA-GRANOLA', 'Honey granola (jar)', 'Component')
      const hamper = await make('FG-HAMPER', 'Breakfast hamper', 'FinishedGood')
      const receive = (id: string, quantity: number, unitCost: number, daysAgo: number) =>
        core('POST', `/api/v1/products/${id}/stock-movements`, {
          type: 'Receipt',
          quantity,
          unitCost,
          effectiveDate: iso(-daysAgo),
        })
      await receive(flour.id, 100, 14.5, 60)
      await receive(flour.id, 50, 16, 30)
      await receive(honey.id, 30, 120, 60)
      await receive(honey.id, 10, 135, 30)
      await receive(oats.id, 80, 22, 45)
      await receive(jar.id, 200, 6.5, 60)
      await receive(box.id, 40, 18, 30)
      return { flour, honey, oats, jar, box, granola, hamper }
    })

    const bom = await step(
      'three-level bill of materials (hamper <- granola <- honey, oats, flour)',
      async () => {
        const granolaBom = await core<{ id: string }>('POST', '/api/v1/bom', {
          productId: products.granola.id,
          name: 'Honey granola',
          lineItems: [
            { productId: products.oats.id, quantity: 0.4 },
            { productId: products.honey.id, quantity: 0.1 },
            { productId: products.flour.id, quantity: 0.05 },
            { productId: products.jar.id, quantity: 1 },
          ],
        })
        await core('POST', `/api/v1/bom/${granolaBom.id}/activate`)
        const hamperBom = await core<{ id: string }>('POST', '/api/v1/bom', {
          productId: products.hamper.id,
          name: 'Breakfast hamper',
          lineItems: [
            { productId: products.granola.id, quantity: 2 },
            { productId: products.box.id, quantity: 1 },
          ],
        })
        await core('POST', `/api/v1/bom/${hamperBom.id}/activate`)
        return { granola: granolaBom, hamper: hamperBom }
      },
    )

    await step('work order for 20 jars of granola, released and completed 7 days ago', async () => {
      const order = await core<{ id: string }>('POST', '/api/v1/work-orders', {
        bomId: bom.granola.id,
        quantity: 20,
        plannedStart: iso(-8),
        plannedEnd: iso(-7),
      })
      await core('POST', `/api/v1/work-orders/${order.id}/release`)
      await core('POST', `/api/v1/work-orders/${order.id}/complete`, { effectiveDate: iso(-7) })
    })

    await step('stock issued below a reorder level (a notification)', () =>
      core('POST', `/api/v1/products/${products.box.id}/stock-movements`, {
        type: 'Issue',
        quantity: 32,
        effectiveDate: iso(-1),
      }),
    )

    type Order = { id: string; lines: { id: string; productId: string | null }[] }
    const orderFor = async (
      customerId: string,
      stop: (typeof STOPS)[number],
      jars: number,
      hampers: number,
    ) => {
      const order = await core<Order>('POST', '/api/v1/orders', {
        customerId,
        deliveryAddress: { fullAddress: stop.address, latitude: stop.latitude, longitude: stop.longitude },
        lines: [
          { productId: products.granola.id, quantity: jars, unitPrice: 89.5 },
          { description: 'Breakfast hamper', quantity: hampers, unitPrice: 450 },
        ],
      })
      return core<Order>('POST', `/api/v1/orders/${order.id}/confirm`)
    }
    const orders = await step('sales orders, confirmed: each holds jars of the granola made', async () => {
      const created: Order[] = []
      // One per customer for today's main run, and three early ones delivered first thing.
      for (const [index, { id, stop }] of customers.entries())
        created.push(await orderFor(id, stop, 1, 1 + (index % 3)))
      for (const { id, stop } of customers.slice(0, 3)) created.push(await orderFor(id, stop, 2, 1))
      return created
    })

    const zones = await step('delivery zones around Cape Town', async () => {
      const ids: string[] = []
      for (const zone of CAPE_TOWN_ZONES)
        ids.push(
          (
            await core<{ id: string }>('POST', '/api/v1/DeliveryZones', {
              name: zone.name,
              colour: zone.colour,
              polygon: { type: 'Polygon', coordinates: [zone.ring] },
            })
          ).id,
        )
      return ids
    })

    // The truck works the day; the two vans a two-hour morning round each, from the warehouse: too
    // short for one van to take the whole day's run, so planning the day across them splits it.
    const warehouse = { latitude: HEAD_OFFICE.address.latitude, longitude: HEAD_OFFICE.address.longitude }
    const vehicles = await step('vehicles', async () => [
      await core<{ id: string }>('POST', '/api/v1/vehicles', {
        registration: 'CA 123-456',
        name: 'Isuzu NPR 4-ton',
        maxWeight: 4000,
        maxVolume: 20,
      }),
      await core<{ id: string }>('POST', '/api/v1/vehicles', {
        registration: 'CA 987-654',
        name: 'Toyota Hiace panel van',
        maxWeight: 1200,
        maxVolume: 6,
        shiftStart: '08:00',
        shiftEnd: '10:00',
        startLocation: warehouse,
      }),
      await core<{ id: string }>('POST', '/api/v1/vehicles', {
        registration: 'CA 246-810',
        name: 'Volkswagen Crafter van',
        maxWeight: 1000,
        maxVolume: 9,
        shiftStart: '08:00',
        shiftEnd: '10:00',
        startLocation: warehouse,
      }),
    ])

    const shipments = await step("today's shipments, each carrying its order's jars", async () => {
      const ids: string[] = []
      for (const [index, order] of orders.entries()) {
        const { id, stop } = customers[index % customers.length] as (typeof customers)[number]
        const shipment = await core<{ id: string }>('POST', '/api/v1/shipments', {
          customerId: id,
          orderId: order.id,
          deliveryAddress: { fullAddress: stop.address, latitude: stop.latitude, longitude: stop.longitude },
          weight: 12 + index * 3,
          volume: 0.1 + index * 0.02,
          scheduledDate: `${today()}T08:00:00Z`,
        })
        // Dispatching the plan issues these from stock.
        const jars = order.lines.find((line) => line.productId === products.granola.id)
        await core('PUT', `/api/v1/shipments/${shipment.id}/lines`, {
          lines: [{ orderLineId: jars?.id, quantity: index < customers.length ? 1 : 2, package: 'Box 1' }],
        })
        ids.push(shipment.id)
      }
      return { main: ids.slice(0, customers.length), early: ids.slice(customers.length) }
    })

    const morningRun = await step("today's main delivery plan", () =>
      core<{ id: string }>('POST', '/api/v1/plans', {
        name: 'Morning run',
        scheduledDate: today(),
        vehicleId: vehicles[0]?.id,
        deliveryZoneIds: zones,
        depot: {
          fullAddress: '10 Dock Road, V&A Waterfront, Cape Town',
          latitude: -33.9036,
          longitude: 18.4207,
        },
        driverName: 'Johan Pretorius',
      }),
    )

    await step('early run on the van: dispatched, two delivered with a signature, one failed', async () => {
      const plan = await core<{ id: string }>('POST', '/api/v1/plans', {
        name: 'Early run',
        scheduledDate: today(),
        vehicleId: vehicles[1]?.id,
        shipmentIds: shipments.early,
        driverName: 'Sipho Ndlovu',
      })
      await core('POST', `/api/v1/plans/${plan.id}/schedule`)
      await core('POST', `/api/v1/plans/${plan.id}/dispatch`)
      const signature = new FormData()
      signature.append('file', new Blob([SIGNATURE_PNG], { type: 'image/png' }), 'signature.png')
      const [first, second, third] = shipments.early
      for (const [shipmentId, recipientName] of [
        [first, 'Lerato Dlamini'],
        [second, 'Pieter van Wyk'],
      ] as const) {
        const file = await core<{ id: string }>('POST', '/api/files/single', signature)
        await core('POST', `/api/v1/shipments/${shipmentId}/stop/arrived`)
        await core('POST', `/api/v1/shipments/${shipmentId}/stop/delivered`, {
          recipientName,
          signatureFileId: file.id,
        })
      }
      await core('POST', `/api/v1/shipments/${third}/stop/failed`, {
        reason: 'Shop closed; no answer at the back door',
        afterFailure: 'Replan',
      })
    })

    await step('a return: one jar back from the first early delivery, received into stock', async () => {
      const returned = await core<{ id: string }>('POST', '/api/v1/returns', {
        shipmentId: shipments.early[0],
        reason: 'Lid cracked in transit',
        lines: [{ productId: products.granola.id, quantity: 1 }],
      })
      await core('POST', `/api/v1/returns/${returned.id}/receive`, {})
    })

    await step("main plan autobatched with the day's other shipments", () =>
      core('POST', `/api/v1/plans/${morningRun.id}/autobatch`),
    )

    await step('carrier configured', () =>
      core('POST', '/api/carriers/configure', {
        carrierId: 2,
        isDefault: true,
        accountReference: 'TMP-0001',
      }),
    )

    await step('suppliers of the raw materials, with terms and a preferred supplier each', async () => {
      const supplier = (name: string, leadTimeDays: number, contact: string) =>
        core<{ id: string }>('POST', '/api/v1/suppliers', {
          name,
          paymentTerms: 'Net30',
          leadTimeDays,
          contacts: [{ firstName: contact, role: 'Sales', isPrimary: true }],
        })
      const farm = await supplier('Boland Farm Supplies', 5, 'Pieter')
      const packaging = await supplier('Karoo Packaging', 10, 'Lerato')
      const terms = (supplierId: string, productId: string, unitCost: number, minimumOrderQuantity: number) =>
        core('PUT', `/api/v1/suppliers/${supplierId}/products/${productId}`, {
          unitCost,
          minimumOrderQuantity,
          isPreferred: true,
        })
      await terms(farm.id, products.flour.id, 13.9, 50)
      await terms(farm.id, products.oats.id, 20.5, 25)
      await terms(farm.id, products.honey.id, 118, 10)
      await terms(packaging.id, products.jar.id, 6.2, 100)
      await terms(packaging.id, products.box.id, 17.5, 20)
    })

    await step('stock transferred to the branch, part of it still in transit', async () => {
      const atBranch = { ...auth, 'x-business-id': branch.id }
      const branchCore = <T = Json>(method: Method, url: string, payload?: unknown) =>
        call<T>(apps.core, method, url, payload, atBranch)
      // Products are per business: the branch's own, matched to the head office's by SKU.
      await branchCore('POST', '/api/v1/products', {
        sku: 'RM-FLOUR',
        name: 'Stone-ground flour (kg)',
        type: 'RawMaterial',
        unitOfMeasure: 'kg',
        reorderLevel: 10,
      })
      await branchCore('POST', '/api/v1/products', {
        sku: 'PK-JAR',
        name: 'Glass jar 500 ml',
        type: 'RawMaterial',
      })
      const transfer = await core<{ id: string }>('POST', '/api/v1/transfer-orders', {
        destinationBusinessId: branch.id,
        notes: 'Weekly top-up for Bellville',
        lines: [
          { productId: products.flour.id, quantity: 25 },
          { productId: products.jar.id, quantity: 40 },
        ],
      })
      const shipped = await core<{ lines: { id: string }[] }>(
        'POST',
        `/api/v1/transfer-orders/${transfer.id}/ship`,
        { effectiveDate: iso(-3) },
      )
      const [flourLine, jarLine] = shipped.lines
      await branchCore('POST', `/api/v1/transfer-orders/${transfer.id}/receipts`, {
        effectiveDate: iso(-2),
        lines: [
          { lineId: flourLine?.id, quantity: 25 },
          { lineId: jarLine?.id, quantity: 30 },
        ],
      })
    })

    return { created: true, email, password, businessId, branchId: branch.id }
  }
}
