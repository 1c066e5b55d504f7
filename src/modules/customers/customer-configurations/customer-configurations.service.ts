import type { Database } from '../../../db/database.js'
import { invalidField } from '../../../errors.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { checkSettingValue, knownSetting } from '../../organisation/index.js'
import { assertCustomerExists } from '../customers/index.js'
import * as repository from './customer-configurations.repository.js'
import type {
  CustomerConfigurationResponse,
  SaveCustomerAppConfigurationCommand,
} from './customer-configurations.schemas.js'

export async function listCustomerConfigurations(
  database: Database,
  auth: BusinessAuth,
  customerId: string,
): Promise<CustomerConfigurationResponse[]> {
  const db = database.db
  await assertCustomerExists(db, auth, customerId)
  const rows = await repository.listConfigurations(db, auth.schemaName, auth.businessId, customerId)
  return rows.map((row) => ({
    customerId: row.customer_id,
    key: row.key,
    value: row.value,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }))
}

/**
 * Sets (or with a null value removes) one key for a customer. A key of the settings registry is a
 * per-customer override of that setting, so its value must fit the setting's type.
 */
export async function saveCustomerConfiguration(
  database: Database,
  auth: BusinessAuth,
  customerId: string,
  { key, value }: SaveCustomerAppConfigurationCommand,
): Promise<boolean> {
  const db = database.db
  await assertCustomerExists(db, auth, customerId)
  const target = { businessId: auth.businessId, customerId, key }
  if (value === null) {
    await repository.deleteConfiguration(db, auth.schemaName, target)
    return true
  }
  const definition = knownSetting(key)
  let stored = value
  if (definition) {
    const checked = checkSettingValue(definition, value)
    if (!checked.ok) throw invalidField('value', `${checked.message} (${key})`)
    stored = checked.value
  }
  await repository.upsertConfiguration(db, auth.schemaName, { ...target, value: stored })
  return true
}
