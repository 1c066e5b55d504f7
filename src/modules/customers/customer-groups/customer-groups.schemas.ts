import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const CustomerGroupResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  name: Type.String(),
  description: Nullable(Type.String()),
  customerCount: Type.Integer({ description: 'customers (not deleted) in the group' }),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type CustomerGroupResponse = Static<typeof CustomerGroupResponse>

/** Create and update (PUT replaces: an omitted description becomes null). */
export const CustomerGroupRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'unique in the business, ignoring case' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
})
export type CustomerGroupRequest = Static<typeof CustomerGroupRequest>

export const CustomerGroupParams = Type.Object({ customerGroupId: Uuid() })

export const DeleteCustomerGroupQuery = Type.Object({
  moveCustomersTo: Type.Optional(
    Type.String({
      maxLength: 36,
      description:
        'for a group that still has customers: the id of another group of the business to move them to, or `none` to leave them without a group',
    }),
  ),
})
export type DeleteCustomerGroupQuery = Static<typeof DeleteCustomerGroupQuery>
