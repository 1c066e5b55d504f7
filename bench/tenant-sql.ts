/**
 * The baseline's hand-written statements for the tenant scenarios: what a careful engineer would
 * write with bare `pg` — one statement for an item or a page (children aggregated with json_agg,
 * the total from count(*) over ()), each prepared by name. `s` is the organisation's schema.
 */
import type { Fresh, ResolvedSeed, Statement } from './scenario-types.js'

/** The API-key lookup (the baseline has no cache: each request reads the key). */
export const apiKeyLookup: Statement = {
  name: 'bench-api-key',
  sql:
    'select k.id, k.organization_id, k.business_id, k.created_by_user_id, k.scopes, k.expires_at, k.revoked_at, ' +
    'o.schema_name, m.role, r.permissions as custom_permissions from global.api_keys k ' +
    'join global.organizations o on o.id = k.organization_id ' +
    "join global.memberships m on m.organization_id = k.organization_id and m.user_id = k.created_by_user_id and m.status = 'Active' " +
    'left join global.roles r on r.id = m.custom_role_id where k.key_hash = $1',
  params: (seed) => [seed.apiKeyHash],
}

export const findBusiness: Statement = {
  name: 'bench-business',
  sql: ({ schemaName: s }) =>
    'select id, parent_business_id, registered_name, display_name, registration_number, email, phone_number, ' +
    'website, address, currency, timezone, requires_order_integration, requires_order_fulfillment, ' +
    'requires_accounting_integration, requires_dispatch_builder, multiple_branches, date_created, date_modified ' +
    `from "${s}".businesses where id = $1`,
  params: (seed) => [seed.businessId],
}

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** A customer row with its group's name, contacts and attachments as JSON in the API's shape. */
const customerSelect = (s: string) =>
  'select c.id, c.business_id, c.code, c.name, c.email, c.phone_number, c.customer_group_id, c.type, c.status, ' +
  'c.billing_address, c.shipping_address, c.metadata, c.notes, c.date_created, c.date_modified, ' +
  'g.name as customer_group_name, ' +
  "coalesce((select json_agg(json_build_object('id', cc.id, 'customerId', cc.customer_id, 'firstName', cc.first_name, " +
  "'lastName', cc.last_name, 'email', cc.email, 'phoneNumber', cc.phone_number, 'role', cc.role, 'isPrimary', cc.is_primary, " +
  `'dateCreated', ${iso('cc.date_created')}, 'dateModified', ${iso('cc.date_modified')}) ` +
  `order by cc.is_primary desc, cc.date_created, cc.id) from "${s}".customer_contacts cc ` +
  "where cc.business_id = c.business_id and cc.customer_id = c.id), '[]'::json) as contacts, " +
  "coalesce((select json_agg(json_build_object('id', a.id, 'type', a.type, 'fileId', a.file_id, 'fileName', f.file_name, " +
  "'contentType', f.content_type, 'sizeBytes', f.size_bytes, 'title', a.title, 'url', a.url, " +
  `'dateCreated', ${iso('a.date_created')}) order by a.date_created, a.id) from "${s}".customer_attachments a ` +
  `left join "${s}".files f on f.id = a.file_id and f.business_id = a.business_id ` +
  "where a.business_id = c.business_id and a.customer_id = c.id), '[]'::json) as attachments"
const customersFrom = (s: string) =>
  `from "${s}".customers c left join "${s}".customer_groups g on g.id = c.customer_group_id ` +
  'where c.business_id = $1 and c.deleted_at is null'

/** One customer (the id is a function: the write reads its new customer). */
export const findCustomer = (id: (seed: ResolvedSeed, fresh: Fresh) => string): Statement => ({
  name: 'bench-customer',
  sql: ({ schemaName: s }) => `${customerSelect(s)} ${customersFrom(s)} and c.id = $2`,
  params: (seed, fresh) => [seed.businessId, id(seed, fresh)],
})

/** A page in the default order with its total (the business's live-customer count, kept by a trigger). */
export const listCustomers = (pageSize: number): Statement => ({
  name: 'bench-customers',
  sql: ({ schemaName: s }) =>
    `${customerSelect(s)}, coalesce((select live from "${s}".customer_counts where business_id = $1), 0) as total ${customersFrom(s)} ` +
    'order by c.date_created desc, c.id limit $2 offset $3',
  params: (_seed) => [_seed.businessId, pageSize, 0],
})
