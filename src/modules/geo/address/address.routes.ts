import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { AddressQuery, AddressResponse, MAX_ADDRESS_TEXT } from './address.schemas.js'
import { addressFromText } from './address.service.js'
import { geocoderFor } from './geocoder.js'

/** Address from text (no permission declared in the contract: any valid credential). */
export function registerAddressRoutes(app: HttpApp, { config }: AppDeps) {
  const geocoder = geocoderFor(config)
  app.get(
    '/api/Address/get-from-text',
    // The contract lists the Core API's credential pairs here, business header included, though the
    // route needs no business.
    operation(
      { signedIn: true, business: false },
      {
        operationId: 'GetAddressFromText',
        summary: 'Parse free text into an address with coordinates',
        description:
          'Offline by default: postcode, street, unit, suburb, city, province and country formats of South Africa, the ' +
          'United States, the United Kingdom, Germany and Australia, with the city (and its coordinates, at city ' +
          'precision) resolved against the GeoNames gazetteer of places with 1,000 or more inhabitants. When the ' +
          'server has GEOCODER_URL (a Nominatim-compatible service) it is asked first, and the offline parser answers ' +
          `if it fails or times out. confidence (0..1) says how much was recognised. Blank text, text over ` +
          `${MAX_ADDRESS_TEXT} characters, control characters or no letter or digit: 400 naming text; nothing ` +
          'recognisable (no known place, nor a postcode with a street): 404 address_not_found.',
        tags: ['Address'],
        querystring: AddressQuery,
        response: SingleResult('core', AddressResponse),
        errors: [400, 404],
        security: CORE_SECURITY,
      },
    ),
    async (request) => single('core', await addressFromText(request.query.text, geocoder)),
  )
}
