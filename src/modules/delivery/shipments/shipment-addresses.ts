import type { Executor } from '../../../db/tables.js'
import { type AddressOutput, normaliseAddress, readAddress } from '../../../http/address.js'
import { type MessageEntry, messageEntry } from '../../../http/envelopes.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import type { Geocoder } from '../../geo/index.js'
import { locateAddress } from '../../geo/index.js'
import * as repository from './shipments.repository.js'
import type { ShipmentRequest } from './shipments.schemas.js'

/** Where a shipment's delivery address came from: sent with it, its order's, or its customer's shipping address. */
type Source = 'request' | 'order' | 'customer'

export interface ShipmentAddresses {
  order: Awaited<ReturnType<typeof repository.orderOf>>
  delivery: AddressOutput | null
  pickup: AddressOutput | null
  messages: MessageEntry[]
}

const TEXT_PARTS = ['unit', 'number', 'street', 'suburb', 'city', 'province', 'postcode', 'country'] as const

/** The text a person would write for the address: its fullAddress, else its parts in order. */
function textOf(address: AddressOutput): string {
  if (address.fullAddress) return address.fullAddress
  return TEXT_PARTS.map((part) => address[part])
    .filter((part): part is string => Boolean(part))
    .join(', ')
}

const located = (address: AddressOutput | null) =>
  address !== null && address.latitude !== null && address.longitude !== null

/**
 * Fills in coordinates an address lacks from its text, with the platform's address lookup (the
 * geocoder when configured, else the offline parser and gazetteer): the text parts are kept as
 * given, only latitude and longitude are added. Says what it did, or that it found nothing.
 */
async function withCoordinates(
  address: AddressOutput | null,
  which: 'delivery' | 'pickup',
  geocoder: Geocoder | undefined,
  messages: MessageEntry[],
): Promise<AddressOutput | null> {
  if (address === null || located(address)) return address
  const text = textOf(address)
  const found = text ? await locateAddress(text, geocoder) : undefined
  if (!found || found.latitude === null || found.longitude === null) {
    messages.push(
      messageEntry(
        'Warning',
        'shipment_address_not_located',
        `No coordinates for the ${which} address`,
        `No coordinates could be found for the ${which} address${text ? ` "${text}"` : ''}` +
          (which === 'delivery'
            ? '; autobatch leaves a shipment without them out. Send latitude and longitude, or a fuller address.'
            : '.'),
      ),
    )
    return address
  }
  messages.push(
    messageEntry(
      'Info',
      'shipment_address_located',
      `The ${which} address was located`,
      `The ${which} address "${text}" had no coordinates; the address lookup placed it at ${found.latitude}, ${found.longitude} ` +
        `(${found.fullAddress}; confidence ${found.confidence}).`,
    ),
  )
  return { ...address, latitude: found.latitude, longitude: found.longitude }
}

/**
 * A shipment's addresses, settled before its transaction (a geocoder may take a while, and must
 * not hold a connection meanwhile): the delivery address sent, else its order's, else its
 * customer's shipping address; then coordinates looked up for any address given only as text.
 * Unknown orders and customers are left to the checks in the transaction (a 400 naming them).
 */
export async function shipmentAddresses(
  db: Executor,
  auth: BusinessAuth,
  request: ShipmentRequest,
  geocoder: Geocoder | undefined,
): Promise<ShipmentAddresses> {
  const { schemaName: schema, businessId } = auth
  const order = request.orderId
    ? await repository.orderOf(db, schema, businessId, request.orderId)
    : undefined
  const customerId = request.customerId ?? order?.customer_id ?? null
  let delivery = normaliseAddress(request.deliveryAddress)
  let source: Source = 'request'
  if (!delivery && order?.delivery_address) {
    delivery = readAddress(order.delivery_address)
    source = 'order'
  }
  if (!delivery && customerId) {
    const customer = await repository.liveCustomerAddress(db, schema, businessId, customerId)
    delivery = readAddress(customer?.shipping_address ?? null)
    source = 'customer'
  }
  const messages: MessageEntry[] = []
  if (delivery && source === 'customer') {
    messages.push(
      messageEntry(
        'Info',
        'shipment_address_from_customer',
        "The customer's shipping address",
        "No delivery address was sent (nor an order's): the shipment goes to the customer's shipping address.",
      ),
    )
  }
  if (!delivery) {
    messages.push(
      messageEntry(
        'Warning',
        'shipment_without_delivery_address',
        'No delivery address',
        customerId
          ? 'No delivery address was sent, and neither the order nor the customer has one: autobatch leaves the shipment out until it has one.'
          : 'No delivery address was sent: autobatch leaves the shipment out until it has one.',
      ),
    )
  }
  delivery = await withCoordinates(delivery, 'delivery', geocoder, messages)
  const pickup = await withCoordinates(normaliseAddress(request.pickupAddress), 'pickup', geocoder, messages)
  return { order, delivery, pickup, messages }
}
