import { randomUUID } from 'node:crypto'

/** Canned rows for bench/kysely-cost.ts, shaped like what `pg` returns for each statement. */
const now = new Date()

export const business = {
  id: randomUUID(),
  parent_business_id: null,
  registered_name: 'Bench Org',
  display_name: 'Bench Org',
  registration_number: '2026/000001/07',
  email: 'ops@example.com',
  phone_number: '+27 21 555 0100',
  website: 'https://example.com',
  address: { fullAddress: '1 Main Road, Cape Town', city: 'Cape Town', country: 'ZA' },
  currency: 'ZAR',
  timezone: 'Africa/Johannesburg',
  requires_order_integration: false,
  requires_order_fulfillment: false,
  requires_accounting_integration: false,
  requires_dispatch_builder: true,
  multiple_branches: false,
  date_created: now,
  date_modified: now,
}

export const customer = (i: number) => ({
  id: randomUUID(),
  business_id: business.id,
  code: `CUS-${String(i).padStart(6, '0')}`,
  name: `Bench Customer ${i}`,
  email: `customer-${i}@example.com`,
  phone_number: null,
  customer_group_id: null,
  type: 'Individual',
  status: 'Active',
  billing_address: null,
  shipping_address: null,
  metadata: {},
  notes: null,
  date_created: now,
  date_modified: now,
  customer_group_name: null,
  contacts: [],
  attachments: [],
})

export const page = Array.from({ length: 20 }, (_, i) => ({ ...customer(i + 1), __total: 50 }))

const apiKey = {
  id: randomUUID(),
  organization_id: randomUUID(),
  business_id: business.id,
  created_by_user_id: randomUUID(),
  scopes: null,
  expires_at: null,
  revoked_at: null,
  schema_name: 'org_benchschema',
  role: 'Owner',
  custom_permissions: null,
}

export function fakeRows(sql: string): Record<string, unknown>[] {
  if (sql.includes('"api_keys"')) return sql.startsWith('select') ? [apiKey] : []
  if (sql.includes('"businesses"')) return [business]
  if (sql.includes('"customer_contacts"') || sql.includes('"customer_attachments"')) return []
  // runList deletes __total from its rows, so each call gets fresh copies.
  if (sql.includes('count(*) over ()')) return page.map((row) => ({ ...row }))
  if (sql.includes('"customers"')) return [customer(1)]
  return []
}
