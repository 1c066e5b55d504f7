/**
 * The carrier (fulfillment provider) catalogue. Ids are stable int32 values: new carriers get new
 * ids, an id is never reused or renumbered, because businesses' configurations and plans keep them.
 */
export const CARRIER_TYPES = ['Courier', 'Postal', 'Freight', 'OwnFleet'] as const
export type CarrierType = (typeof CARRIER_TYPES)[number]

export interface Carrier {
  id: number
  name: string
  type: CarrierType
  /** ISO 3166-1 alpha-2 codes */
  countries: readonly string[]
  services: readonly string[]
  website: string | null
}

const c = (
  id: number,
  name: string,
  type: CarrierType,
  countries: string[],
  services: string[],
  website: string | null,
): Carrier => ({ id, name, type, countries, services, website })

export const CARRIERS: readonly Carrier[] = [
  c(1, 'Own fleet', 'OwnFleet', [], ['Same day', 'Scheduled'], null),
  c(
    2,
    'The Courier Guy',
    'Courier',
    ['ZA'],
    ['Economy', 'Overnight', 'Same day'],
    'https://www.thecourierguy.co.za',
  ),
  c(
    3,
    'Aramex',
    'Courier',
    ['ZA', 'AE', 'AU', 'GB', 'US'],
    ['Domestic', 'International express'],
    'https://www.aramex.com',
  ),
  c(4, 'PostNet', 'Courier', ['ZA'], ['Counter to counter', 'Door to door'], 'https://www.postnet.co.za'),
  c(
    5,
    'SAPO (South African Post Office)',
    'Postal',
    ['ZA'],
    ['Registered mail', 'Parcels', 'Speed Services'],
    'https://www.postoffice.co.za',
  ),
  c(
    6,
    'UPS',
    'Courier',
    ['US', 'GB', 'DE', 'AU', 'ZA'],
    ['Ground', 'Express', 'Worldwide Saver'],
    'https://www.ups.com',
  ),
  c(
    7,
    'FedEx',
    'Courier',
    ['US', 'GB', 'DE', 'AU', 'ZA'],
    ['Ground', 'Express', 'International Priority'],
    'https://www.fedex.com',
  ),
  c(
    8,
    'USPS',
    'Postal',
    ['US'],
    ['Ground Advantage', 'Priority Mail', 'Priority Mail Express'],
    'https://www.usps.com',
  ),
  c(
    9,
    'DHL Express',
    'Courier',
    ['ZA', 'US', 'GB', 'DE', 'AU'],
    ['Express Worldwide', 'Express Domestic'],
    'https://www.dhl.com',
  ),
  c(
    10,
    'Royal Mail',
    'Postal',
    ['GB'],
    ['Tracked 24', 'Tracked 48', 'Special Delivery'],
    'https://www.royalmail.com',
  ),
  c(11, 'DPD', 'Courier', ['GB', 'DE'], ['Next day', 'Predict', 'Classic'], 'https://www.dpd.com'),
  c(12, 'Evri', 'Courier', ['GB'], ['Standard', 'Next day'], 'https://www.evri.com'),
  c(13, 'Hermes', 'Courier', ['DE'], ['Paket', 'Päckchen'], 'https://www.myhermes.de'),
  c(14, 'Deutsche Post DHL', 'Postal', ['DE'], ['Paket', 'Päckchen', 'Warenpost'], 'https://www.dhl.de'),
  c(15, 'GLS', 'Courier', ['DE', 'GB'], ['Business parcel', 'Express'], 'https://gls-group.com'),
  c(16, 'Australia Post', 'Postal', ['AU'], ['Parcel Post', 'Express Post'], 'https://auspost.com.au'),
  c(17, 'Sendle', 'Courier', ['AU', 'US'], ['Standard', 'Express'], 'https://www.sendle.com'),
  c(18, 'StarTrack', 'Freight', ['AU'], ['Road Express', 'Premium'], 'https://startrack.com.au'),
  c(
    19,
    'Parcelforce Worldwide',
    'Courier',
    ['GB'],
    ['express24', 'express48', 'globalpriority'],
    'https://www.parcelforce.com',
  ),
  c(20, 'Yodel', 'Courier', ['GB'], ['Xpect 24', 'Xpect 48'], 'https://www.yodel.co.uk'),
  c(
    21,
    'Amazon Shipping',
    'Courier',
    ['GB', 'US', 'DE'],
    ['Next day', 'Two day'],
    'https://shipping.amazon.com',
  ),
  c(22, 'Fastway (Aramex Australia)', 'Courier', ['AU'], ['Road', 'Satchel'], 'https://www.aramex.com.au'),
  c(23, 'Couriers Please', 'Courier', ['AU'], ['Parcel', 'Satchel'], 'https://www.couriersplease.com.au'),
  c(24, 'RAM', 'Courier', ['ZA'], ['Door to door', 'Express'], 'https://www.ram.co.za'),
  c(25, 'Dawn Wing', 'Courier', ['ZA'], ['Overnight', 'Economy'], 'https://www.dawnwing.co.za'),
  c(26, 'Pargo', 'Courier', ['ZA'], ['Pickup point', 'Door to door'], 'https://pargo.co.za'),
  c(27, 'OnTrac', 'Courier', ['US'], ['Ground'], 'https://www.ontrac.com'),
  c(28, 'TNT', 'Freight', ['AU', 'GB', 'DE'], ['Road Express', 'Overnight'], 'https://www.tnt.com'),
]

const byId = new Map(CARRIERS.map((carrier) => [carrier.id, carrier]))
export const carrierById = (id: number) => byId.get(id)
