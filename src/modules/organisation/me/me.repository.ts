import type { Executor } from '../../../db/tables.js'

export async function findUser(db: Executor, userId: string) {
  return db
    .selectFrom('global.users')
    .select(['id', 'email', 'first_name', 'last_name', 'phone_number', 'email_verified_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
}

/** The user's active memberships with their organisations, oldest first. */
export async function activeOrganizations(db: Executor, userId: string) {
  return db
    .selectFrom('global.memberships as m')
    .innerJoin('global.organizations as o', 'o.id', 'm.organization_id')
    .select(['o.id', 'o.slug', 'o.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .where('m.status', '=', 'Active')
    .orderBy('m.date_created')
    .execute()
}

/** Every business of the organisation whose schema this is, oldest first. */
export async function organizationBusinesses(db: Executor, schemaName: string) {
  return db
    .withSchema(schemaName)
    .selectFrom('businesses')
    .select(['id', 'display_name', 'parent_business_id'])
    .orderBy('date_created')
    .execute()
}

/** The custom role of the user's membership in the organisation (id and name null for a built-in role). */
export async function membershipCustomRole(db: Executor, userId: string, organizationId: string) {
  return db
    .selectFrom('global.memberships as m')
    .leftJoin('global.roles as r', 'r.id', 'm.custom_role_id')
    .select(['r.id', 'r.name'])
    .where('m.user_id', '=', userId)
    .where('m.organization_id', '=', organizationId)
    .executeTakeFirst()
}
