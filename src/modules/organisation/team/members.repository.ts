import { type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'
import type { PageRequest } from '../../../http/envelopes.js'
import { pageOffset } from '../../../http/list-params.js'
import type { OrderTerm } from '../../../http/odata/index.js'

/**
 * The members of the organisation with the person as the organisation may see them (`u`): until
 * an invitation is accepted, the address and names the inviter wrote and no verified email, never
 * what an existing account holds. Lists, filters, search and order all read these columns.
 */
function members(db: Executor, organizationId: string) {
  const people = db
    .selectFrom('global.memberships as pm')
    .innerJoin('global.users as pu', 'pu.id', 'pm.user_id')
    .where('pm.organization_id', '=', organizationId)
    .select([
      'pm.id as membership_id',
      sql<string>`case when pm.status = 'Invited' then coalesce(pm.invited_email, pu.email) else pu.email end`.as(
        'email',
      ),
      sql<string>`case when pm.status = 'Invited' then coalesce(pm.invited_first_name, '') else pu.first_name end`.as(
        'first_name',
      ),
      sql<string>`case when pm.status = 'Invited' then coalesce(pm.invited_last_name, '') else pu.last_name end`.as(
        'last_name',
      ),
      sql<Date | null>`case when pm.status = 'Invited' then null else pu.email_verified_at end`.as(
        'email_verified_at',
      ),
    ])
  return db
    .selectFrom('global.memberships as m')
    .innerJoin(people.as('u'), 'u.membership_id', 'm.id')
    .leftJoin('global.roles as r', 'r.id', 'm.custom_role_id')
    .where('m.organization_id', '=', organizationId)
}

const MEMBER_COLUMNS = [
  'm.id as membership_id',
  'm.user_id',
  'm.role',
  'm.status',
  'm.date_created',
  'u.email',
  'u.first_name',
  'u.last_name',
  'u.email_verified_at',
  'r.id as custom_role_id',
  'r.name as custom_role_name',
] as const

export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>

/** Case-insensitive contains over first name, last name, full name and email; wildcards match literally. */
function searchCondition(text: string | undefined) {
  const trimmed = text?.trim()
  if (!trimmed) return sql<SqlBool>`true`
  const pattern = `%${trimmed.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
  return sql<SqlBool>`((u.first_name || ' ' || u.last_name) ilike ${pattern} escape '\\' or u.email ilike ${pattern} escape '\\')`
}

export interface MemberListQuery {
  /** The $filter condition over the member columns (`u.*`, `m.*`). */
  filter: RawBuilder<SqlBool>
  search: string | undefined
  order: OrderTerm[]
  page: PageRequest
}

/** One page of members matching the filter and search, and how many match in all; both counted in SQL. */
export async function listMembers(
  db: Executor,
  organizationId: string,
  { filter, search, order, page }: MemberListQuery,
) {
  const where = sql<SqlBool>`(${filter} and ${searchCondition(search)})`
  let query = members(db, organizationId).where(where).select(MEMBER_COLUMNS)
  for (const term of order) query = query.orderBy(sql.ref(term.column), term.direction)
  // A stable tie-break so pages never overlap or skip rows.
  query = query.orderBy('m.date_created').orderBy('m.id')
  const [rows, total] = await Promise.all([
    query.limit(page.pageSize).offset(pageOffset(page)).execute(),
    members(db, organizationId)
      .where(where)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(total.total) }
}

export async function findMember(db: Executor, organizationId: string, userId: string) {
  return members(db, organizationId).where('m.user_id', '=', userId).select(MEMBER_COLUMNS).executeTakeFirst()
}

/**
 * Locks the organisation's owner memberships until the transaction ends, so every change that
 * could leave it without an owner runs one at a time (ordered by id, so lockers never deadlock).
 */
export async function lockOwners(trx: Transaction<Tables>, organizationId: string) {
  return trx
    .selectFrom('global.memberships')
    .select(['user_id', 'status'])
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'Owner')
    .orderBy('id')
    .forUpdate()
    .execute()
}

/**
 * Locks a membership by the id the API shows for it: the user's id once active, the membership's
 * own id while invited (an invited account's user id is not the organisation's to know).
 */
export async function lockMembership(trx: Transaction<Tables>, organizationId: string, memberId: string) {
  return trx
    .selectFrom('global.memberships')
    .select(['id', 'user_id', 'role', 'status'])
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '<>', 'Invited'), eb('user_id', '=', memberId)]),
        eb.and([eb('status', '=', 'Invited'), eb('id', '=', memberId)]),
      ]),
    )
    .forUpdate()
    .executeTakeFirst()
}

export async function setRole(
  trx: Transaction<Tables>,
  membershipId: string,
  role: string,
  customRoleId: string | null,
) {
  await trx
    .updateTable('global.memberships')
    .set({ role, custom_role_id: customRoleId, date_modified: new Date() })
    .where('id', '=', membershipId)
    .execute()
}

/**
 * Deletes the membership and ends what the user could still act with in this organisation:
 * their sessions, and the API keys they created (which would otherwise revive if they rejoined).
 */
export async function removeMembership(
  trx: Transaction<Tables>,
  membershipId: string,
  organizationId: string,
  userId: string,
) {
  await trx.deleteFrom('global.memberships').where('id', '=', membershipId).execute()
  await trx
    .updateTable('global.sessions')
    .set({ revoked_at: new Date(), revoked_reason: 'membership_removed' })
    .where('user_id', '=', userId)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .execute()
  await trx
    .updateTable('global.api_keys')
    .set({ revoked_at: new Date() })
    .where('created_by_user_id', '=', userId)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .execute()
}
