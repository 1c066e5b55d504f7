import type { Selectable } from 'kysely'
import { readAddress } from '../../../http/address.js'
import type { ContactResponse } from './contacts.schemas.js'
import type { CustomerRow } from './customers.repository.js'
import type { CustomerResponse } from './customers.schemas.js'
import type { CustomerContactsTable } from './customers.tables.js'

export type ContactRow = Selectable<CustomerContactsTable>

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

/** The customer as the API returns it; contacts and attachments come already shaped from SQL. */
export function toCustomer(row: CustomerRow): CustomerResponse {
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
    contacts: row.contacts,
    attachments: row.attachments,
    metadata: row.metadata ?? {},
    notes: row.notes,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}
