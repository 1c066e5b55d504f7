import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'
import type { PermissionSet } from '../../../security/permissions.js'

const memberCount = sql<number>`(SELECT count(*) FROM global.memberships m WHERE m.custom_role_id = r.id)`

function roles(db: Executor, organizationId: string) {
  return db
    .selectFrom('global.roles as r')
    .select([
      'r.id',
      'r.name',
      'r.description',
      'r.permissions',
      'r.date_created',
      'r.date_modified',
      memberCount.as('member_count'),
    ])
    .where('r.organization_id', '=', organizationId)
}

export type RoleRow = NonNullable<Awaited<ReturnType<typeof findRole>>>

export async function listRoles(db: Executor, organizationId: string) {
  return roles(db, organizationId).orderBy(sql`lower(r.name)`).orderBy('r.id').execute()
}

export async function findRole(db: Executor, organizationId: string, roleId: string) {
  return roles(db, organizationId).where('r.id', '=', roleId).executeTakeFirst()
}

/**
 * The role's permissions, share-locked until the transaction ends: a concurrent delete then
 * waits and sees the new assignment (and refuses with role_in_use) instead of racing it.
 */
export async function lockRole(trx: Transaction<Tables>, organizationId: string, roleId: string) {
  return trx
    .selectFrom('global.roles')
    .select(['id', 'name', 'permissions'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', roleId)
    .forShare()
    .executeTakeFirst()
}

/** Another role of the organisation with this name, ignoring case (the unique index still decides races). */
export async function nameTaken(db: Executor, organizationId: string, name: string, exceptId: string | null) {
  let query = db
    .selectFrom('global.roles')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
  if (exceptId) query = query.where('id', '<>', exceptId)
  return (await query.executeTakeFirst()) !== undefined
}

/** How many memberships of the organisation hold each built-in role. */
export async function builtInCounts(db: Executor, organizationId: string) {
  const rows = await db
    .selectFrom('global.memberships')
    .select(['role', (eb) => eb.fn.countAll<number>().as('count')])
    .where('organization_id', '=', organizationId)
    .groupBy('role')
    .execute()
  return new Map(rows.map((row) => [row.role, Number(row.count)]))
}

export interface RoleValues {
  name: string
  description: string | null
  permissions: PermissionSet
}

export async function insertRole(db: Executor, id: string, organizationId: string, values: RoleValues) {
  await db
    .insertInto('global.roles')
    .values({
      id,
      organization_id: organizationId,
      name: values.name,
      description: values.description,
      permissions: JSON.stringify(values.permissions),
    })
    .execute()
}

export async function updateRole(db: Executor, organizationId: string, id: string, values: RoleValues) {
  await db
    .updateTable('global.roles')
    .set({
      name: values.name,
      description: values.description,
      permissions: JSON.stringify(values.permissions),
      date_modified: new Date(),
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute()
}

export async function roleInUse(db: Executor, roleId: string) {
  const row = await db
    .selectFrom('global.memberships')
    .select('id')
    .where('custom_role_id', '=', roleId)
    .executeTakeFirst()
  return row !== undefined
}

export async function deleteRole(db: Executor, organizationId: string, id: string) {
  await db
    .deleteFrom('global.roles')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute()
}
