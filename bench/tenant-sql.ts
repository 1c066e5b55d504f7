/**
 * The statements Cartage sends for the tenant scenarios, copied from the wire (bench/verify-sql.ts
 * checks them against what Cartage sends today). `s` is the organisation's schema.
 */
import type { Fresh, ResolvedSeed, Statement } from './scenario-types.js'

const inList = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ')

/** security/authenticator.ts `apiKey`: run on every API-key request. */
export const apiKeyLookup: Statement = {
  sql:
    'select "k"."id", "k"."organization_id", "k"."business_id", "k"."created_by_user_id", "k"."scopes", "k"."expires_at", ' +
    '"k"."revoked_at", "o"."schema_name", "m"."role", "r"."permissions" as "custom_permissions" from "global"."api_keys" as "k" ' +
    'inner join "global"."organizations" as "o" on "o"."id" = "k"."organization_id" inner join "global"."memberships" as "m" ' +
    'on "m"."organization_id" = "k"."organization_id" and "m"."user_id" = "k"."created_by_user_id" and "m"."status" = $1 ' +
    'left join "global"."roles" as "r" on "r"."id" = "m"."custom_role_id" where "k"."key_hash" = $2',
  params: (seed) => ['Active', seed.apiKeyHash],
}

/** business.repository.ts `findBusiness`. */
export const findBusiness: Statement = {
  sql: ({ schemaName: s }) =>
    'select "id", "parent_business_id", "registered_name", "display_name", "registration_number", "email", "phone_number", ' +
    '"website", "address", "currency", "timezone", "requires_order_integration", "requires_order_fulfillment", ' +
    '"requires_accounting_integration", "requires_dispatch_builder", "multiple_branches", "date_created", "date_modified" ' +
    `from "${s}"."businesses" where "id" = $1`,
  params: (seed) => [seed.businessId],
}

const customerColumns =
  'select "c"."id", "c"."business_id", "c"."code", "c"."name", "c"."email", "c"."phone_number", "c"."customer_group_id", ' +
  '"c"."type", "c"."status", "c"."billing_address", "c"."shipping_address", "c"."metadata", "c"."notes", "c"."date_created", ' +
  '"c"."date_modified", "g"."name" as "customer_group_name"'
const customersFrom = (s: string) =>
  `from "${s}"."customers" as "c" left join "${s}"."customer_groups" as "g" on "g"."id" = "c"."customer_group_id" ` +
  'where "c"."business_id" = $1 and "c"."deleted_at" is null'

/** customers.repository.ts `findCustomer` (the id is a function: the write reads its new customer). */
export const findCustomer = (id: (seed: ResolvedSeed, fresh: Fresh) => string): Statement => ({
  sql: ({ schemaName: s }) => `${customerColumns} ${customersFrom(s)} and "c"."id" = $2`,
  params: (seed, fresh) => [seed.businessId, id(seed, fresh)],
})

/** customers.service.ts `listCustomers` through http/list-query.ts `runList`, default order, page 1. */
export const listCustomers = (pageSize: number): Statement => ({
  sql: ({ schemaName: s }) =>
    `${customerColumns}, count(*) over () as "__total" ${customersFrom(s)} ` +
    'order by "c"."date_created" desc, "c"."id" limit $2 offset $3',
  params: (seed) => [seed.businessId, pageSize, 0],
})

type Ids = (seed: ResolvedSeed, fresh: Fresh) => string[]

/** customers.repository.ts `contactsOf` and `attachmentsOf` for `count` customers, sent together. */
export const childrenOf = (count: number, ids: Ids): Statement[] => [
  {
    sql: ({ schemaName: s }) =>
      `select * from "${s}"."customer_contacts" where "business_id" = $1 and "customer_id" in (${inList(2, count)}) ` +
      'order by "is_primary" desc, "date_created", "id"',
    params: (seed, fresh) => [seed.businessId, ...ids(seed, fresh)],
  },
  {
    sql: ({ schemaName: s }) =>
      'select "a"."id", "a"."customer_id", "a"."type", "a"."file_id", "f"."file_name", "f"."content_type", "f"."size_bytes", ' +
      `"a"."title", "a"."url", "a"."date_created" from "${s}"."customer_attachments" as "a" left join "${s}"."files" as "f" ` +
      'on "f"."id" = "a"."file_id" and "f"."business_id" = "a"."business_id" where "a"."business_id" = $1 ' +
      `and "a"."customer_id" in (${inList(2, count)}) order by "a"."date_created", "a"."id"`,
    params: (seed, fresh) => [seed.businessId, ...ids(seed, fresh)],
  },
]
