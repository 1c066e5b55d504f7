/**
 * What other areas may use of the organisation area (businesses, settings, files); everything
 * else in its folders is its own. The dependency test (test/architecture) holds other areas to it.
 */

export { businessInOrganization } from './business/business.repository.js'
export { DIMENSION_UNITS, WEIGHT_UNITS } from './business/reference-data.js'
export { findFile } from './files/files.repository.js'
export { readSetting, readSettings } from './settings/settings.reader.js'
