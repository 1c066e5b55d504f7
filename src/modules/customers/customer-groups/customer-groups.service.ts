import { isUniqueViolation, newId } from '../../../db/ids.js'
import type { Executor } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import { groupInUse, groupNameTaken, groupNotFound, moveTargetNotFound } from './customer-groups.errors.js'
import * as repository from './customer-groups.repository.js'
import type { CustomerGroupRequest, CustomerGroupResponse } from './customer-groups.schemas.js'

export interface GroupAuth {
  schemaName: string
  businessId: string
  userId: string
}

const LIST: ListSpec = {
  fields: {
    name: { column: 'g.name', type: 'string' },
    description: { column: 'g.description', type: 'string' },
    dateCreated: { column: 'g.date_created', type: 'datetime' },
    dateModified: { column: 'g.date_modified', type: 'datetime' },
  },
  search: ['g.name', 'g.description'],
  defaultOrder: [{ column: 'g.name', direction: 'asc' }],
  tiebreak: 'g.id',
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function toResponse(row: repository.GroupRow): CustomerGroupResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    name: row.name,
    description: row.description,
    customerCount: Number(row.customer_count ?? 0),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

/** Trimmed values; a name of only spaces is as empty as no name. */
function values(request: CustomerGroupRequest) {
  const name = request.name.trim()
  if (!name) throw invalidField('name', 'must not be blank')
  return { name, description: request.description?.trim() || null }
}

export async function listGroups(db: Executor, auth: GroupAuth, query: ListQuery) {
  const { rows, total, page } = await runList(
    repository.scopedGroups(db, auth.schemaName, auth.businessId),
    query,
    LIST,
  )
  return paged('core', rows.map(toResponse), total, page)
}

export async function getGroup(db: Executor, auth: GroupAuth, id: string) {
  const row = await repository.findGroup(db, auth.schemaName, auth.businessId, id)
  if (!row) throw groupNotFound()
  return toResponse(row)
}

export async function createGroup(db: Executor, auth: GroupAuth, request: CustomerGroupRequest) {
  try {
    const row = await repository.insertGroup(db, auth.schemaName, {
      id: newId(),
      business_id: auth.businessId,
      ...values(request),
    })
    return toResponse({ ...row, customer_count: 0 })
  } catch (error) {
    // The partial unique index on (business, lower(name)) decides, races included.
    if (isUniqueViolation(error)) throw groupNameTaken()
    throw error
  }
}

export async function updateGroup(db: Executor, auth: GroupAuth, id: string, request: CustomerGroupRequest) {
  try {
    const row = await repository.updateGroup(db, auth.schemaName, auth.businessId, id, values(request))
    if (!row) throw groupNotFound()
    return toResponse(row)
  } catch (error) {
    if (isUniqueViolation(error)) throw groupNameTaken()
    throw error
  }
}

/** `moveCustomersTo`: absent, `none` (any case), or the id of another live group of the business. */
function parseTarget(value: string | undefined, groupId: string): string | null | undefined {
  if (value === undefined) return undefined
  if (value.toLowerCase() === 'none') return null
  if (!UUID.test(value)) throw invalidField('moveCustomersTo', "must be a customer group id or 'none'")
  const target = value.toLowerCase()
  if (target === groupId.toLowerCase()) {
    throw invalidField('moveCustomersTo', 'must name another group than the one being deleted')
  }
  return target
}

/**
 * Soft-deletes a group. One that still has customers is refused (409 group_in_use) unless the
 * caller says where they go; then the move and the delete commit together.
 */
export async function deleteGroup(
  db: Executor,
  auth: GroupAuth,
  id: string,
  moveCustomersTo: string | undefined,
): Promise<boolean> {
  const target = parseTarget(moveCustomersTo, id)
  await db.transaction().execute(async (trx) => {
    const group = await repository.lockGroup(trx, auth.schemaName, auth.businessId, id, 'update')
    if (!group) throw groupNotFound()
    if (target && !(await repository.lockGroup(trx, auth.schemaName, auth.businessId, target, 'share'))) {
      throw moveTargetNotFound()
    }
    if (target === undefined) {
      const count = await repository.countCustomers(trx, auth.schemaName, auth.businessId, id)
      if (count > 0) throw groupInUse(count)
    } else {
      await repository.moveCustomers(trx, auth.schemaName, auth, group, target)
    }
    await repository.softDeleteGroup(trx, auth.schemaName, auth.businessId, id)
  })
  return true
}
