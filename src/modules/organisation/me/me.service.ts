import type { Database } from '../../../db/database.js'
import type { AuthContext } from '../../../security/auth-context.js'
import { PERMISSION_MODULES } from '../../../security/permissions.js'
import * as repository from './me.repository.js'
import type { MeResponse } from './me.schemas.js'

/** Who is calling: the user, their organisations and businesses, role and effective permissions. */
export async function getMe(database: Database, auth: AuthContext): Promise<MeResponse> {
  const db = database.db
  const [user, organizations, businesses, membership] = await Promise.all([
    repository.findUser(db, auth.userId),
    repository.activeOrganizations(db, auth.userId),
    repository.organizationBusinesses(db, auth.schemaName),
    repository.membershipCustomRole(db, auth.userId, auth.organizationId),
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
    // A key acts in its own organisation only; its creator's other organisations are not its business.
    organizations: organizations
      .filter((o) => auth.kind === 'user' || o.id === auth.organizationId)
      .map((o) => ({
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
