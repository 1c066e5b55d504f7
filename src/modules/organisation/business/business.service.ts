import type { Transaction } from 'kysely'
import { globalAndOrganisation } from '../../../db/clusters.js'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { normaliseAddress, readAddress } from '../../../http/address.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { FieldMap } from '../../../http/odata/index.js'
import type { AuthContext, BusinessAuth } from '../../../security/auth-context.js'
import { businessNotFound } from './business.errors.js'
import * as repository from './business.repository.js'
import type { BusinessResponse, CreateBusinessRequest, UpdateBusinessCommand } from './business.schemas.js'
import { normaliseCurrency, normaliseTimezone } from './reference-data.js'

const FIELDS = {
  registeredName: { column: 'registered_name', type: 'string' },
  displayName: { column: 'display_name', type: 'string' },
  currency: { column: 'currency', type: 'string' },
  dateCreated: { column: 'date_created', type: 'datetime' },
} as const satisfies FieldMap

const CHILDREN: ListSpec = {
  fields: FIELDS,
  search: ['registered_name', 'display_name'],
  defaultOrder: [{ column: 'date_created', direction: 'asc' }],
  tiebreak: 'id',
}

export function toBusinessResponse(row: repository.BusinessRow): BusinessResponse {
  return {
    id: row.id,
    registeredName: row.registered_name,
    displayName: row.display_name,
    registrationNumber: row.registration_number,
    email: row.email,
    phoneNumber: row.phone_number,
    website: row.website,
    address: readAddress(row.address),
    currency: row.currency,
    timezone: row.timezone,
    parentBusinessId: row.parent_business_id,
    requiresOrderIntegration: row.requires_order_integration,
    requiresOrderFulfillment: row.requires_order_fulfillment,
    requiresAccountingIntegration: row.requires_accounting_integration,
    requiresDispatchBuilder: row.requires_dispatch_builder,
    multipleBranches: row.multiple_branches,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

const blankToNull = (value: string | null | undefined) => value?.trim() || null

type BusinessInput = UpdateBusinessCommand | CreateBusinessRequest

/**
 * Checks what the schema cannot (blank names, known currency and zone) and builds the stored
 * values: optional text left out or blank becomes null, flags left out become false.
 */
function toValues(
  input: BusinessInput,
  fallback: { displayName: string; currency: string; timezone: string },
): { values: repository.BusinessValues; reasons: Reason[] } {
  const reasons: Reason[] = []
  const registeredName = input.registeredName.trim()
  if (!registeredName) reasons.push({ field: 'registeredName', message: 'must not be blank' })
  const displayName = input.displayName === undefined ? fallback.displayName : input.displayName.trim()
  if (!displayName) reasons.push({ field: 'displayName', message: 'must not be blank' })
  const currency = normaliseCurrency(input.currency ?? fallback.currency)
  if (!currency) reasons.push({ field: 'currency', message: 'must be an ISO 4217 currency code, e.g. USD' })
  const timezone = normaliseTimezone(input.timezone ?? fallback.timezone)
  if (!timezone) {
    reasons.push({
      field: 'timezone',
      message: "must be an IANA time zone name, e.g. Africa/Johannesburg, or 'UTC'",
    })
  }
  const values: repository.BusinessValues = {
    parentBusinessId: input.parentBusinessId?.toLowerCase() ?? null,
    registeredName,
    displayName,
    registrationNumber: blankToNull(input.registrationNumber),
    email: blankToNull(input.email),
    phoneNumber: blankToNull(input.phoneNumber),
    website: blankToNull(input.website),
    address: normaliseAddress(input.address),
    currency: currency ?? '',
    timezone: timezone ?? '',
    requiresOrderIntegration: input.requiresOrderIntegration ?? false,
    requiresOrderFulfillment: input.requiresOrderFulfillment ?? false,
    requiresAccountingIntegration: input.requiresAccountingIntegration ?? false,
    requiresDispatchBuilder: input.requiresDispatchBuilder ?? false,
    multipleBranches: input.multipleBranches ?? false,
  }
  return { values, reasons }
}

/** A parent must be a business of the caller's organisation and must not close a cycle. */
async function parentReasons(
  trx: Transaction<Tables>,
  organizationId: string,
  businessId: string,
  parentId: string | null,
): Promise<Reason[]> {
  if (parentId === null) return []
  const field = 'parentBusinessId'
  if (parentId === businessId) return [{ field, message: 'a business cannot be its own parent' }]
  if (!(await repository.businessInOrganization(trx, parentId, organizationId))) {
    return [{ field, message: 'must be a business of your organisation' }]
  }
  if (await repository.isAncestorOrSelf(trx, businessId, parentId)) {
    return [{ field, message: 'is a descendant of this business; the hierarchy cannot have a cycle' }]
  }
  return []
}

export async function getMyBusiness(database: Database, auth: BusinessAuth): Promise<BusinessResponse> {
  const row = await repository.findBusiness(database.db, auth.schemaName, auth.businessId)
  if (!row) throw businessNotFound()
  return toBusinessResponse(row)
}

/** Replaces the editable fields; the global index's parent changes in the same transaction. */
export async function updateBusiness(
  database: Database,
  auth: AuthContext,
  businessId: string,
  command: UpdateBusinessCommand,
): Promise<BusinessResponse> {
  return globalAndOrganisation(database, auth.schemaName, async (trx, organisation) => {
    await repository.lockOrganizationTree(trx, auth.organizationId)
    const current = await repository.findBusiness(organisation, auth.schemaName, businessId)
    if (!current) throw businessNotFound()
    const { values, reasons } = toValues(command, {
      displayName: current.display_name,
      currency: current.currency,
      timezone: current.timezone,
    })
    reasons.push(...(await parentReasons(trx, auth.organizationId, businessId, values.parentBusinessId)))
    if (reasons.length > 0) throw validationFailed(reasons)
    const row = await repository.updateBusiness(trx, organisation, auth.schemaName, businessId, values)
    if (!row) throw businessNotFound()
    return toBusinessResponse(row)
  })
}

/** A new business in the caller's organisation: index row and tenant row commit together. */
export async function createBusiness(
  database: Database,
  auth: BusinessAuth,
  request: CreateBusinessRequest,
): Promise<BusinessResponse> {
  return globalAndOrganisation(database, auth.schemaName, async (trx, organisation) => {
    const current = await repository.findBusiness(organisation, auth.schemaName, auth.businessId)
    if (!current) throw businessNotFound()
    const businessId = newId()
    const { values, reasons } = toValues(request, {
      displayName: request.registeredName.trim().slice(0, 50),
      currency: current.currency,
      timezone: current.timezone,
    })
    reasons.push(...(await parentReasons(trx, auth.organizationId, businessId, values.parentBusinessId)))
    if (reasons.length > 0) throw validationFailed(reasons)
    const row = await repository.insertBusiness(
      trx,
      organisation,
      auth.schemaName,
      auth.organizationId,
      businessId,
      values,
    )
    return toBusinessResponse(row)
  })
}

/** Direct children of a business of the caller's organisation, with the standard list parameters. */
export async function listChildren(
  database: Database,
  auth: AuthContext,
  businessId: string,
  query: ListQuery,
) {
  if (!(await repository.findBusiness(database.db, auth.schemaName, businessId))) throw businessNotFound()
  const { rows, total, page } = await runList(
    repository.children(database.db, auth.schemaName, businessId),
    query,
    CHILDREN,
  )
  return paged('core', rows.map(toBusinessResponse), total, page)
}
