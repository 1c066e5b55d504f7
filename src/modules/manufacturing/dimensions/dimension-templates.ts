import { createHash } from 'node:crypto'
import type { DimensionUnit, WeightUnit } from '../products/index.js'

/**
 * Published parcel sizes of major carriers and postal services, inner dimensions where the carrier
 * gives them, as listed on their size guides:
 * - ZA: The Courier Guy Pudo locker sizes (pudo.co.za, "Locker sizes").
 * - US: USPS Priority Mail Flat Rate boxes (usps.com, "Priority Mail Flat Rate Boxes");
 *   UPS Express Box sizes (ups.com, "UPS Express Packaging"); FedEx One Rate boxes (fedex.com, "FedEx packaging").
 * - GB: Royal Mail size guide (royalmail.com, "Size and weight guide").
 * - DE: Deutsche Post letter formats and DHL Päckchen/Paket limits (deutschepost.de, dhl.de "Preise und Formate").
 * - AU: Australia Post Parcel Post boxes (auspost.com.au, "Boxes and packaging").
 * maxWeight is null where the carrier sets no weight for the box itself (the service limit applies).
 * Checked against published pages: dhl.de "DHL Paket" (min. 15 x 11 x 1 cm, max. 120 x 60 x 60 cm,
 * 31.5 kg; up to 2 kg at most 60 x 30 x 15 cm). Where sources differ: pudo-sa.co.za lists the
 * locker compartments (XS 20 x 9 x 60 cm ... XL 42 x 70 x 60 cm, 20 kg) where The Courier Guy lists
 * the parcel sizes used here; Australia Post's BX2 is also quoted at 31 x 23 x 10.5 cm (outer).
 */
export interface DimensionTemplate {
  id: string
  name: string
  carrier: string
  country: string
  length: number
  width: number
  height: number
  dimensionUnit: DimensionUnit
  maxWeight: number | null
  weightUnit: WeightUnit
}

type Row = [
  carrier: string,
  name: string,
  length: number,
  width: number,
  height: number,
  maxWeight: number | null,
]

const GROUPS: { country: string; dimensionUnit: DimensionUnit; weightUnit: WeightUnit; rows: Row[] }[] = [
  {
    country: 'ZA',
    dimensionUnit: 'Cm',
    weightUnit: 'Kg',
    rows: [
      ['The Courier Guy', 'Pudo Locker Extra Small (XS)', 60, 17, 8, 2],
      ['The Courier Guy', 'Pudo Locker Small (S)', 60, 41, 8, 5],
      ['The Courier Guy', 'Pudo Locker Medium (M)', 60, 41, 19, 10],
      ['The Courier Guy', 'Pudo Locker Large (L)', 60, 41, 41, 15],
      ['The Courier Guy', 'Pudo Locker Extra Large (XL)', 60, 41, 69, 20],
    ],
  },
  {
    country: 'US',
    dimensionUnit: 'In',
    weightUnit: 'Lb',
    rows: [
      ['USPS', 'Priority Mail Small Flat Rate Box', 8.625, 5.375, 1.625, 70],
      ['USPS', 'Priority Mail Medium Flat Rate Box (top loading)', 11.25, 8.75, 6, 70],
      ['USPS', 'Priority Mail Medium Flat Rate Box (side loading)', 14, 12, 3.5, 70],
      ['USPS', 'Priority Mail Large Flat Rate Box', 12, 12, 5.5, 70],
      ['UPS', 'UPS Express Box Small', 13, 11, 2, null],
      ['UPS', 'UPS Express Box Medium', 16, 11, 3, null],
      ['UPS', 'UPS Express Box Large', 18, 13, 3, null],
      ['FedEx', 'FedEx Small Box', 12.375, 10.875, 1.5, 50],
      ['FedEx', 'FedEx Medium Box', 13.25, 11.5, 2.375, 50],
      ['FedEx', 'FedEx Large Box', 17.5, 12.375, 3, 50],
    ],
  },
  {
    country: 'GB',
    dimensionUnit: 'Cm',
    weightUnit: 'Kg',
    rows: [
      ['Royal Mail', 'Letter', 24, 16.5, 0.5, 0.1],
      ['Royal Mail', 'Large Letter', 35.3, 25, 2.5, 0.75],
      ['Royal Mail', 'Small Parcel', 45, 35, 16, 2],
      ['Royal Mail', 'Medium Parcel', 61, 46, 46, 20],
    ],
  },
  {
    country: 'DE',
    dimensionUnit: 'Cm',
    weightUnit: 'Kg',
    rows: [
      ['Deutsche Post', 'Großbrief', 35.3, 25, 2, 0.5],
      ['Deutsche Post', 'Maxibrief', 35.3, 25, 5, 1],
      ['DHL', 'Päckchen S', 35, 25, 10, 2],
      ['DHL', 'Päckchen M', 60, 30, 15, 2],
      ['DHL', 'Paket bis 2 kg', 60, 30, 15, 2],
      ['DHL', 'Paket bis 5 kg', 120, 60, 60, 5],
      ['DHL', 'Paket bis 10 kg', 120, 60, 60, 10],
      ['DHL', 'Paket bis 31,5 kg', 120, 60, 60, 31.5],
    ],
  },
  {
    country: 'AU',
    dimensionUnit: 'Cm',
    weightUnit: 'Kg',
    rows: [
      ['Australia Post', 'Parcel Post Box Small (BX1)', 22, 16, 7.7, 22],
      ['Australia Post', 'Parcel Post Box Medium (BX2)', 31, 22.5, 10.2, 22],
      ['Australia Post', 'Parcel Post Box Large (BX4)', 40, 20, 18, 22],
      ['Australia Post', 'Parcel Post Box Extra Large (BX6)', 43, 30.5, 14, 22],
    ],
  },
]

/** A stable id per template (name-based, so clients can keep references across releases). */
function templateId(key: string): string {
  const hex = createHash('sha1').update(`cartage-dimension-template:${key}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export const DIMENSION_TEMPLATES: readonly DimensionTemplate[] = GROUPS.flatMap((group) =>
  group.rows.map(([carrier, name, length, width, height, maxWeight]) => ({
    id: templateId(`${group.country}:${carrier}:${name}`),
    name: `${carrier} ${name}`,
    carrier,
    country: group.country,
    length,
    width,
    height,
    dimensionUnit: group.dimensionUnit,
    maxWeight,
    weightUnit: group.weightUnit,
  })),
)
