import type { Transaction } from 'kysely'
import type { Config } from '../../../config.js'
import type { Database } from '../../../db/database.js'
import { isUniqueViolation, newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { carrierNotConfigured, carrierNotFound, defaultCarrierConflict } from './carriers.errors.js'
import * as repository from './carriers.repository.js'
import type {
  CarrierConfiguration,
  ConfigureCarrierRequest,
  FulfillmentProviderResponse,
  UpdateCarrierRequest,
} from './carriers.schemas.js'
import { CARRIER_TYPES, CARRIERS, type Carrier, carrierById } from './catalogue.js'
import {
  credentialsContext,
  credentialsKey,
  decryptCredentials,
  encryptCredentials,
} from './credentials-cipher.js'

type KeyConfig = Pick<Config, 'carrierCredentialsKey' | 'dataDir'>

function toConfiguration(row: repository.ConfigurationRow): CarrierConfiguration {
  return {
    id: row.id,
    carrierId: row.carrier_id,
    enabled: row.enabled,
    isDefault: row.is_default,
    accountReference: row.account_reference,
    hasCredentials: row.has_credentials,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

function toProvider(
  carrier: Carrier,
  row: repository.ConfigurationRow | undefined,
): FulfillmentProviderResponse {
  return {
    id: carrier.id,
    name: carrier.name,
    type: carrier.type,
    countries: [...carrier.countries],
    services: [...carrier.services],
    website: carrier.website,
    configured: row !== undefined,
    configuration: row ? toConfiguration(row) : null,
  }
}

export async function listCarriers(database: Database, auth: BusinessAuth, configuredOnly: boolean) {
  const rows = await repository.configurations(database.db, auth.schemaName, auth.businessId)
  const byCarrier = new Map(rows.map((r) => [r.carrier_id, r]))
  const carriers = CARRIERS.filter((c) => !configuredOnly || byCarrier.has(c.id)).map((c) =>
    toProvider(c, byCarrier.get(c.id)),
  )
  return paged('core', carriers, carriers.length, { page: 1, pageSize: Math.max(1, carriers.length) })
}

export async function carrierLookups(database: Database, auth: BusinessAuth) {
  const rows = await repository.configurations(database.db, auth.schemaName, auth.businessId)
  const configured = new Set(rows.map((r) => r.carrier_id))
  return {
    carriers: CARRIERS.map((c) => ({
      id: c.id,
      name: c.name,
      type: c.type,
      configured: configured.has(c.id),
    })),
    types: [...CARRIER_TYPES],
    countries: [...new Set(CARRIERS.flatMap((c) => c.countries))].sort(),
  }
}

export async function getCarrier(database: Database, auth: BusinessAuth, carrierId: number) {
  const carrier = carrierById(carrierId)
  if (!carrier) throw carrierNotFound()
  const [row] = await repository.configurations(database.db, auth.schemaName, auth.businessId, carrierId)
  return toProvider(carrier, row)
}

const seal = (
  config: KeyConfig,
  auth: BusinessAuth,
  carrierId: number,
  credentials: Record<string, string> | null | undefined,
) =>
  credentials && Object.keys(credentials).length > 0
    ? encryptCredentials(credentialsKey(config), credentialsContext(auth.businessId, carrierId), credentials)
    : null

/** Runs a write that may make a carrier the default; the partial unique index settles a race as a 409. */
async function writing<T>(database: Database, work: (trx: Transaction<Tables>) => Promise<T>) {
  try {
    return await database.db.transaction().execute(work)
  } catch (error) {
    if (isUniqueViolation(error)) throw defaultCarrierConflict()
    throw error
  }
}

/** Adds or replaces the business's configuration of a catalogue carrier; publishes CarrierConfigured. */
export async function configureCarrier(
  { database, config, services }: AppDeps,
  auth: BusinessAuth,
  request: ConfigureCarrierRequest,
) {
  const carrier = carrierById(request.carrierId)
  if (!carrier) throw invalidField('carrierId', 'must be a carrier catalogue id (GET /api/carriers)')
  const { schemaName: schema, businessId } = auth
  await writing(database, async (trx) => {
    if (request.isDefault) await repository.clearDefault(trx, schema, businessId)
    await repository.upsertConfiguration(trx, schema, {
      id: newId(),
      business_id: businessId,
      carrier_id: carrier.id,
      enabled: request.enabled ?? true,
      is_default: request.isDefault ?? false,
      account_reference: request.accountReference?.trim() || null,
      credentials: seal(config, auth, carrier.id, request.credentials),
    })
    await services.events.publish(trx, schema, {
      type: 'CarrierConfigured',
      businessId,
      userId: auth.userId,
      payload: { carrierId: carrier.id, name: carrier.name },
    })
  })
  return getCarrier(database, auth, carrier.id)
}

/** Changes only the fields sent; `credentials: null` removes the stored credentials. */
export async function updateCarrier(
  database: Database,
  config: KeyConfig,
  auth: BusinessAuth,
  carrierId: number,
  request: UpdateCarrierRequest,
) {
  if (!carrierById(carrierId)) throw carrierNotFound()
  const { schemaName: schema, businessId } = auth
  await writing(database, async (trx) => {
    if (request.isDefault) await repository.clearDefault(trx, schema, businessId)
    const values: Partial<repository.ConfigurationValues> = {}
    if (request.enabled !== undefined) values.enabled = request.enabled
    if (request.isDefault !== undefined) values.is_default = request.isDefault
    if (request.accountReference !== undefined)
      values.account_reference = request.accountReference?.trim() || null
    if (request.credentials !== undefined)
      values.credentials = seal(config, auth, carrierId, request.credentials)
    if (!(await repository.updateConfiguration(trx, schema, businessId, carrierId, values)))
      throw carrierNotConfigured()
  })
  return getCarrier(database, auth, carrierId)
}

export async function deleteConfiguredCarrier(
  database: Database,
  auth: BusinessAuth,
  configurationId: string,
) {
  const deleted = await repository.deleteConfiguration(
    database.db,
    auth.schemaName,
    auth.businessId,
    configurationId,
  )
  if (!deleted) throw carrierNotConfigured()
  return toProvider(carrierById(deleted.carrier_id) as Carrier, undefined)
}

/** The decrypted credentials, for server-side carrier integrations only (never sent to a client). */
export async function carrierCredentials(
  database: Database,
  config: KeyConfig,
  auth: BusinessAuth,
  carrierId: number,
) {
  const sealed = await repository.storedCredentials(database.db, auth.schemaName, auth.businessId, carrierId)
  if (!sealed) return null
  return decryptCredentials(credentialsKey(config), credentialsContext(auth.businessId, carrierId), sealed)
}
