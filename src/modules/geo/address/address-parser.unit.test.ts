import { beforeAll, describe, expect, it } from 'vitest'
import { parseAddress } from './address-parser.js'

/** Each country's formats: the components, and the city's coordinates within 0.2 degrees. */
const CASES: [string, Record<string, string | null>, [number, number]][] = [
  [
    '12 Long Street, Cape Town, 8001',
    {
      number: '12',
      street: 'Long Street',
      city: 'Cape Town',
      province: 'Western Cape',
      postcode: '8001',
      country: 'ZA',
    },
    [-33.93, 18.42],
  ],
  [
    'Unit 5, 10 Main Road, Rondebosch, Cape Town, Western Cape, 7700, South Africa',
    {
      unit: 'Unit 5',
      number: '10',
      street: 'Main Road',
      suburb: 'Rondebosch',
      city: 'Cape Town',
      postcode: '7700',
      country: 'ZA',
    },
    [-33.93, 18.42],
  ],
  [
    '3 Sandton Drive, Sandton, Johannesburg 2196',
    {
      number: '3',
      street: 'Sandton Drive',
      suburb: 'Sandton',
      city: 'Johannesburg',
      province: 'Gauteng',
      postcode: '2196',
      country: 'ZA',
    },
    [-26.2, 28.04],
  ],
  [
    '9465 Wilshire Blvd, Beverly Hills, CA 90210',
    {
      number: '9465',
      street: 'Wilshire Blvd',
      city: 'Beverly Hills',
      province: 'California',
      postcode: '90210',
      country: 'US',
    },
    [34.07, -118.4],
  ],
  [
    '1600 Pennsylvania Ave NW, Washington, DC 20500, USA',
    {
      number: '1600',
      city: 'Washington',
      province: 'District of Columbia',
      postcode: '20500',
      country: 'US',
    },
    [38.9, -77.04],
  ],
  [
    '350 Fifth Avenue, New York, NY 10118',
    {
      number: '350',
      street: 'Fifth Avenue',
      city: 'New York',
      province: 'New York',
      postcode: '10118',
      country: 'US',
    },
    [40.71, -74.01],
  ],
  [
    '221B Baker Street, London NW1 6XE',
    {
      number: '221B',
      street: 'Baker Street',
      city: 'London',
      province: 'England',
      postcode: 'NW1 6XE',
      country: 'GB',
    },
    [51.51, -0.13],
  ],
  [
    '10 Downing Street, London SW1A 2AA, UK',
    { number: '10', street: 'Downing Street', city: 'London', postcode: 'SW1A 2AA', country: 'GB' },
    [51.51, -0.13],
  ],
  [
    'Flat 2, 15 Princes Street, Edinburgh EH2 2AN',
    {
      unit: 'Flat 2',
      number: '15',
      city: 'Edinburgh',
      province: 'Scotland',
      postcode: 'EH2 2AN',
      country: 'GB',
    },
    [55.95, -3.2],
  ],
  [
    'Invalidenstraße 117, 10115 Berlin',
    { number: '117', street: 'Invalidenstraße', city: 'Berlin', postcode: '10115', country: 'DE' },
    [52.52, 13.41],
  ],
  [
    'Unter den Linden 77, 10117 Berlin, Deutschland',
    { number: '77', street: 'Unter den Linden', city: 'Berlin', postcode: '10117', country: 'DE' },
    [52.52, 13.41],
  ],
  [
    'Marienplatz 8, 80331 München',
    {
      number: '8',
      street: 'Marienplatz',
      city: 'München',
      province: 'Bavaria',
      postcode: '80331',
      country: 'DE',
    },
    [48.14, 11.58],
  ],
  [
    'Level 3, 123 George St, Sydney NSW 2000',
    {
      unit: 'Level 3',
      number: '123',
      street: 'George St',
      city: 'Sydney',
      province: 'New South Wales',
      postcode: '2000',
      country: 'AU',
    },
    [-33.87, 151.21],
  ],
  [
    '1 Macquarie St, Sydney NSW 2000, Australia',
    { number: '1', city: 'Sydney', postcode: '2000', country: 'AU' },
    [-33.87, 151.21],
  ],
  [
    '5/10 Collins Street, Melbourne VIC 3000',
    {
      unit: '5',
      number: '10',
      street: 'Collins Street',
      city: 'Melbourne',
      province: 'Victoria',
      postcode: '3000',
      country: 'AU',
    },
    [-37.81, 144.96],
  ],
]

describe('offline address parser', () => {
  // The gazetteer is read on first use: load it here, with its own time, so the first case times
  // only its parse (on a loaded machine the read alone has taken over the 10 s a unit test has).
  beforeAll(() => {
    parseAddress('Cape Town')
  }, 60_000)

  it.each(CASES)('reads %s', (text, expected, [latitude, longitude]) => {
    const parsed = parseAddress(text)
    expect(parsed).toMatchObject(expected)
    expect(Math.abs((parsed?.latitude ?? 0) - latitude)).toBeLessThan(0.2)
    expect(Math.abs((parsed?.longitude ?? 0) - longitude)).toBeLessThan(0.2)
    expect(parsed?.confidence).toBeGreaterThanOrEqual(0.9)
  })

  it('is less confident of a city alone than of a full address, and knows nothing of gibberish', () => {
    const city = parseAddress('Durban')
    expect(city).toMatchObject({ city: 'Durban', province: 'KwaZulu-Natal', country: 'ZA', street: null })
    expect(city?.confidence).toBeLessThan(0.5)
    const full = parseAddress('100 West Street, Durban, 4001')
    expect(full?.confidence).toBeGreaterThan(city?.confidence ?? 1)
    expect(parseAddress('asdkjh qwe')).toBeNull()
    // Four digits alone could be anything.
    expect(parseAddress('8001')).toBeNull()
  })
})
