/**
 * What other areas may use of the geo area; everything else in its folders is its own. The
 * dependency test (test/architecture) holds other areas to it.
 */
export { locateAddress } from './address/address.service.js'
export { type Geocoder, geocoderFor } from './address/geocoder.js'
