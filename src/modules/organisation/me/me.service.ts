import type { Database } from '../../../db/database.js'
import type { AuthContext } from '../../../security/auth-context.js'
import { PERMISSION_MODULES } from '../../../security/permissions.js'

export async function getMe(database: Database, auth: AuthContext) {
  const db = database.db
  const [user, organizations, businesses, membership] = await Promise.all([
    db
      .selectFrom('global.users')
      .select(['id', 'email', 'first_name', 'last_name', 'phone_number', 'email_verified_at'])
      .where('id', '=', auth.userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('global.memberships as m')
      .innerJoin('global.organizations as o', 'o.id', 'm.organization_id')
      .select(['o.id', 'o.slug', 'o.name', 'm.role'])
      .where('m.user_id', '=', auth.userId)
      .where('m.status', '=', 'Active')
      .orderBy('m.date_created')
      .execute(),
    db
      .withSchema(auth.schemaName)
      .selectFrom('businesses')
      .select(['id', 'display_name', 'parent_business_id'])
      .orderBy('date_created')
      .execute(),
    db
      .selectFrom('global.memberships as m')
      .leftJoin('global.roles as r', 'r.id', 'm.custom_role_id')
      .select(['r.id', 'r.name'])
      .where('m.user_id', '=', auth.userId)
      .where('m.organization_id', '=', auth.organizationId)
      .executeTakeFirst(),
  ])
  const organization = organizations.find((o) => o.id === auth.organizationId)
  return {
    user: {
      id: user.id,
      displayName: `${user.first_name} ${user.last_name}`.trim(),
      firstName: user.first_name,
      lastName: user.last_name,
      email: user.email,
      phoneNumber: user.phone_number,
      emailVerified: user.email_verified_at !== null,
    },
    credential: auth.kind === 'apiKey' ? 'ApiKey' : 'User',
    organization: { id: auth.organizationId, slug: organization?.slug ?? '', name: organization?.name ?? '' },
    organizations: organizations.map((o) => ({
      id: o.id,
      slug: o.slug,
      name: o.name,
      isOwner: o.role === 'Owner',
    })),
    businesses: businesses.map((b) => ({
      id: b.id,
      displayName: b.display_name,
      parentBusinessId: b.parent_business_id,
    })),
    currentBusinessId: auth.businessId,
    role: auth.role,
    customRole: membership?.id && membership.name ? { id: membership.id, name: membership.name } : null,
    isOwner: auth.isOwner,
    permissions: Object.fromEntries(PERMISSION_MODULES.map((m) => [m, auth.permissions[m] ?? 0])),
  }
}
