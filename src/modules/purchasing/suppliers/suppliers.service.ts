import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor } from '../../../db/tables.js'
import { readAddress } from '../../../http/address.js'
import { paged } from '../../../http/envelopes.js'
import { type ListQuery, pageOffset, pageRequest } from '../../../http/list-params.js'
import { hasListCursor, type ListSpec, runList } from '../../../http/list-query.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { supplierNotFound } from './suppliers.errors.js'
import { supplierValues } from './suppliers.input.js'
import * as repository from './suppliers.repository.js'
import {
  PAYMENT_TERMS,
  type PaymentTerms,
  type SupplierRequest,
  type SupplierResponse,
} from './suppliers.schemas.js'

const LIST: ListSpec = {
  fields: {
    code: { column: 's.code', type: 'string' },
    name: { column: 's.name', type: 'string' },
    email: { column: 's.email', type: 'string' },
    phoneNumber: { column: 's.phone_number', type: 'string' },
    currency: { column: 's.currency', type: 'string' },
    paymentTerms: { column: 's.payment_terms', type: 'enum', enumValues: PAYMENT_TERMS },
    leadTimeDays: { column: 's.lead_time_days', type: 'number' },
    taxNumber: { column: 's.tax_number', type: 'string' },
    isActive: { column: 's.is_active', type: 'boolean' },
    dateCreated: { column: 's.date_created', type: 'datetime' },
    dateModified: { column: 's.date_modified', type: 'datetime' },
    metadata: { column: 's.metadata', type: 'map' },
  },
  search: ['s.name', 's.code', 's.email', 's.tax_number'],
  defaultOrder: [{ column: 's.date_created', direction: 'desc' }],
  tiebreak: 's.id',
}

export function toSupplier(row: repository.SupplierRow): SupplierResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    code: row.code,
    name: row.name,
    email: row.email,
    phoneNumber: row.phone_number,
    website: row.website,
    currency: row.currency,
    paymentTerms: row.payment_terms as PaymentTerms,
    leadTimeDays: row.lead_time_days,
    taxNumber: row.tax_number,
    address: readAddress(row.address),
    remittanceAddress: readAddress(row.remittance_address),
    contacts: row.contacts,
    metadata: row.metadata ?? {},
    notes: row.notes,
    isActive: row.is_active,
    deletedAt: row.deleted_at ? row.deleted_at.toISOString() : null,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

async function loadSupplier(db: Executor, auth: BusinessAuth, id: string, includeDeleted = false) {
  const row = await repository.findSupplier(db, auth.schemaName, auth.businessId, id, includeDeleted)
  if (!row) throw supplierNotFound()
  return toSupplier(row)
}

/**
 * True when nothing but the page is asked for: the shape a prepared statement serves. Not for an
 * export's walk over every page, which runList reads by keyset.
 */
export const isDefaultListQuery = (query: ListQuery) =>
  !query.$filter?.trim() && !query.$search?.trim() && !query.$orderby?.trim() && !hasListCursor(query)

export async function listSuppliers(db: Executor, auth: BusinessAuth, query: ListQuery) {
  if (isDefaultListQuery(query)) {
    // A page past the end falls through to runList, which counts the total.
    const page = pageRequest(query)
    const rows = await repository.suppliersInDefaultOrder(db, auth.schemaName, {
      businessId: auth.businessId,
      limit: page.pageSize,
      offset: pageOffset(page),
    })
    if (rows.length > 0 || page.page === 1)
      return paged('core', rows.map(toSupplier), Number(rows[0]?.__total ?? 0), page)
  }
  const { rows, total, page } = await runList(
    repository.scopedSuppliers(db, auth.schemaName, auth.businessId),
    query,
    LIST,
  )
  return paged('core', rows.map(toSupplier), total, page)
}

export const getSupplier = (db: Executor, auth: BusinessAuth, id: string, includeDeleted: boolean) =>
  loadSupplier(db, auth, id, includeDeleted)

const withIds = (contacts: readonly repository.ContactValues[]) =>
  contacts.map((contact) => ({ ...contact, id: newId() }))

/** Creates the supplier and publishes SupplierCreated in the same transaction. */
export async function createSupplier(
  { database, services }: AppDeps,
  auth: BusinessAuth,
  request: SupplierRequest,
) {
  const { values, currency, contacts, metadata } = supplierValues(request)
  return database.db.transaction().execute(async (trx) => {
    const id = newId()
    await repository.insertSupplier(trx, auth.schemaName, {
      ...values,
      currency: currency ?? (await repository.businessCurrency(trx, auth.schemaName, auth.businessId)),
      id,
      business_id: auth.businessId,
      code: await nextCode(trx, auth.schemaName, auth.businessId, 'supplier', 'SUP'),
      metadata: JSON.stringify(metadata ?? {}),
    })
    await repository.replaceContacts(trx, auth.schemaName, auth.businessId, id, withIds(contacts ?? []))
    await services.events.publish(trx, auth.schemaName, {
      type: 'SupplierCreated',
      businessId: auth.businessId,
      userId: auth.userId,
      payload: { supplierId: id, name: values.name },
    })
    return loadSupplier(trx, auth, id)
  })
}

/**
 * Replaces the supplier's fields under its row lock; currency, contacts and metadata only when sent.
 * Deactivating it clears its preferred flags: an inactive supplier is nobody's preferred supplier.
 */
export async function updateSupplier(db: Executor, auth: BusinessAuth, id: string, request: SupplierRequest) {
  const { values, currency, contacts, metadata } = supplierValues(request)
  return db.transaction().execute(async (trx) => {
    const current = await repository.lockSupplier(trx, auth.schemaName, auth.businessId, id, 'update')
    if (!current) throw supplierNotFound()
    await repository.updateSupplier(trx, auth.schemaName, id, {
      ...values,
      currency: currency ?? current.currency,
      ...(metadata ? { metadata: JSON.stringify(metadata) } : {}),
    })
    if (!values.is_active) await repository.clearPreferredOf(trx, auth.schemaName, id)
    if (contacts)
      await repository.replaceContacts(trx, auth.schemaName, auth.businessId, id, withIds(contacts))
    return loadSupplier(trx, auth, id)
  })
}

/** Soft delete: the row stays (purchase orders still name it); its product terms go. */
export async function deleteSupplier(db: Executor, auth: BusinessAuth, id: string) {
  return db.transaction().execute(async (trx) => {
    const current = await repository.lockSupplier(trx, auth.schemaName, auth.businessId, id, 'update')
    if (!current || !(await repository.softDeleteSupplier(trx, auth.schemaName, id))) throw supplierNotFound()
    return true
  })
}
