/**
 * What other areas may use of the organisation area (businesses, settings and their registry, files); everything
 * else in its folders is its own. The dependency test (test/architecture) holds other areas to it.
 */

export { businessInOrganization } from './business/business.repository.js'
export { DIMENSION_UNITS, WEIGHT_UNITS } from './business/reference-data.js'
export { findFile, PROOF_TYPES } from './files/files.repository.js'
export { markDeliveryProof } from './files/files.service.js'
export { createFileStorage, type FileStorage } from './files/storage.js'
export { readSetting, readSettings } from './settings/settings.reader.js'
export { checkSettingValue, knownSetting, SETTING_KEY_PATTERN_TEXT } from './settings/settings.registry.js'
export { NullableValue as NullableSettingValue } from './settings/settings.schemas.js'
