/**
 * Countries the parser knows the formats of, their names as people write them, and their
 * first-level divisions (GeoNames codes -> names, and the abbreviations used in addresses).
 */
export type CountryCode = 'ZA' | 'US' | 'GB' | 'DE' | 'AU'

export const COUNTRY_NAMES: Record<CountryCode, string> = {
  ZA: 'South Africa',
  US: 'United States',
  GB: 'United Kingdom',
  DE: 'Germany',
  AU: 'Australia',
}

/** How a country is written at the end of an address (keys as placeKey gives them). */
export const COUNTRY_ALIASES: Record<string, CountryCode> = {
  'south africa': 'ZA',
  rsa: 'ZA',
  za: 'ZA',
  'suid afrika': 'ZA',
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  us: 'US',
  'u s a': 'US',
  'u s': 'US',
  'united kingdom': 'GB',
  uk: 'GB',
  'u k': 'GB',
  gb: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  germany: 'DE',
  deutschland: 'DE',
  de: 'DE',
  australia: 'AU',
  au: 'AU',
}

/** GeoNames admin code -> division name. */
export const DIVISIONS: Record<CountryCode, Record<string, string>> = {
  ZA: {
    '02': 'KwaZulu-Natal',
    '03': 'Free State',
    '05': 'Eastern Cape',
    '06': 'Gauteng',
    '07': 'Mpumalanga',
    '08': 'Northern Cape',
    '09': 'Limpopo',
    '10': 'North West',
    '11': 'Western Cape',
  },
  AU: {
    '01': 'Australian Capital Territory',
    '02': 'New South Wales',
    '03': 'Northern Territory',
    '04': 'Queensland',
    '05': 'South Australia',
    '06': 'Tasmania',
    '07': 'Victoria',
    '08': 'Western Australia',
  },
  DE: {
    '01': 'Baden-Württemberg',
    '02': 'Bavaria',
    '03': 'Bremen',
    '04': 'Hamburg',
    '05': 'Hesse',
    '06': 'Lower Saxony',
    '07': 'North Rhine-Westphalia',
    '08': 'Rhineland-Palatinate',
    '09': 'Saarland',
    '10': 'Schleswig-Holstein',
    '11': 'Brandenburg',
    '12': 'Mecklenburg-Vorpommern',
    '13': 'Saxony',
    '14': 'Saxony-Anhalt',
    '15': 'Thuringia',
    '16': 'Berlin',
  },
  GB: { ENG: 'England', SCT: 'Scotland', WLS: 'Wales', NIR: 'Northern Ireland' },
  US: {
    AL: 'Alabama',
    AK: 'Alaska',
    AZ: 'Arizona',
    AR: 'Arkansas',
    CA: 'California',
    CO: 'Colorado',
    CT: 'Connecticut',
    DE: 'Delaware',
    DC: 'District of Columbia',
    FL: 'Florida',
    GA: 'Georgia',
    HI: 'Hawaii',
    ID: 'Idaho',
    IL: 'Illinois',
    IN: 'Indiana',
    IA: 'Iowa',
    KS: 'Kansas',
    KY: 'Kentucky',
    LA: 'Louisiana',
    ME: 'Maine',
    MD: 'Maryland',
    MA: 'Massachusetts',
    MI: 'Michigan',
    MN: 'Minnesota',
    MS: 'Mississippi',
    MO: 'Missouri',
    MT: 'Montana',
    NE: 'Nebraska',
    NV: 'Nevada',
    NH: 'New Hampshire',
    NJ: 'New Jersey',
    NM: 'New Mexico',
    NY: 'New York',
    NC: 'North Carolina',
    ND: 'North Dakota',
    OH: 'Ohio',
    OK: 'Oklahoma',
    OR: 'Oregon',
    PA: 'Pennsylvania',
    RI: 'Rhode Island',
    SC: 'South Carolina',
    SD: 'South Dakota',
    TN: 'Tennessee',
    TX: 'Texas',
    UT: 'Utah',
    VT: 'Vermont',
    VA: 'Virginia',
    WA: 'Washington',
    WV: 'West Virginia',
    WI: 'Wisconsin',
    WY: 'Wyoming',
  },
}

/** Abbreviations written in Australian addresses -> GeoNames code. */
export const AU_STATES: Record<string, string> = {
  ACT: '01',
  NSW: '02',
  NT: '03',
  QLD: '04',
  SA: '05',
  TAS: '06',
  VIC: '07',
  WA: '08',
}

/** A division named in full or by its code/abbreviation, for this country: its GeoNames code. */
export function divisionCode(country: CountryCode, text: string): string | undefined {
  const upper = text.trim().toUpperCase()
  if (country === 'AU' && AU_STATES[upper]) return AU_STATES[upper]
  if (country === 'US' && DIVISIONS.US[upper]) return upper
  const lower = text.trim().toLowerCase()
  for (const [code, name] of Object.entries(DIVISIONS[country])) {
    if (name.toLowerCase() === lower) return code
  }
  if (country === 'DE') {
    const german: Record<string, string> = {
      bayern: '02',
      hessen: '05',
      niedersachsen: '06',
      'nordrhein-westfalen': '07',
      'rheinland-pfalz': '08',
      sachsen: '13',
      'sachsen-anhalt': '14',
      thüringen: '15',
    }
    return german[lower]
  }
  return undefined
}

/** Names people write for places the gazetteer lists under another name (keys as placeKey gives them). */
export const PLACE_ALIASES: Record<string, string> = {
  munchen: 'Munich',
  muenchen: 'Munich',
  'new york': 'New York City',
  nyc: 'New York City',
  cologne: 'Köln',
  nuremberg: 'Nürnberg',
  frankfurt: 'Frankfurt am Main',
  'washington dc': 'Washington, D.C.',
  jhb: 'Johannesburg',
  joburg: 'Johannesburg',
  cpt: 'Cape Town',
  gqeberha: 'Port Elizabeth',
  mbombela: 'Nelspruit',
}
