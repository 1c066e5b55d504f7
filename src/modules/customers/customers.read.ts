import type { Kysely } from 'kysely'
import type { Tables } from '../../db/schema.js'
import { readAddress } from '../../http/address.js'
import type { ContactResponse } from './contacts.schemas.js'
import {
  type AttachmentRow,
  attachmentsOf,
  type ContactRow,
  type CustomerRow,
  contactsOf,
} from './customers.repository.js'
import type { AttachmentResponse, CustomerResponse } from './customers.schemas.js'

export function toContact(row: ContactRow): ContactResponse {
  return {
    id: row.id,
    customerId: row.customer_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    role: row.role,
    isPrimary: row.is_primary,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

export function toAttachment(row: AttachmentRow): AttachmentResponse {
  return {
    id: row.id,
    type: row.type as AttachmentResponse['type'],
    fileId: row.file_id,
    fileName: row.file_name,
    contentType: row.content_type,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    title: row.title,
    url: row.url,
    dateCreated: row.date_created.toISOString(),
  }
}

export function toCustomer(
  row: CustomerRow,
  contacts: readonly ContactRow[],
  attachments: readonly AttachmentRow[],
): CustomerResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    code: row.code,
    name: row.name,
    email: row.email,
    phoneNumber: row.phone_number,
    customerGroupId: row.customer_group_id,
    customerGroup:
      row.customer_group_id && row.customer_group_name !== null
        ? { id: row.customer_group_id, name: row.customer_group_name }
        : null,
    type: row.type as CustomerResponse['type'],
    status: row.status as CustomerResponse['status'],
    billingAddress: readAddress(row.billing_address),
    shippingAddress: readAddress(row.shipping_address),
    contacts: contacts.map(toContact),
    attachments: attachments.map(toAttachment),
    metadata: row.metadata ?? {},
    notes: row.notes,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

/** Groups child rows by customer, keeping their query order. */
function byCustomer<T extends { customer_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>()
  for (const row of rows) {
    const list = map.get(row.customer_id)
    if (list) list.push(row)
    else map.set(row.customer_id, [row])
  }
  return map
}

/** Full responses for a page of customers: contacts and attachments in one query each, never per row. */
export async function withChildren(
  db: Kysely<Tables>,
  scope: { schemaName: string; businessId: string },
  rows: readonly CustomerRow[],
): Promise<CustomerResponse[]> {
  const ids = rows.map((row) => row.id)
  const [contacts, attachments] = await Promise.all([
    contactsOf(db, scope.schemaName, scope.businessId, ids),
    attachmentsOf(db, scope.schemaName, scope.businessId, ids),
  ])
  const contactsBy = byCustomer(contacts)
  const attachmentsBy = byCustomer(attachments)
  return rows.map((row) => toCustomer(row, contactsBy.get(row.id) ?? [], attachmentsBy.get(row.id) ?? []))
}
