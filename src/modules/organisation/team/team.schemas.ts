import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { PERMISSION_MODULES } from '../../../security/permissions.js'

export const MEMBER_ROLES = ['Owner', 'Admin', 'Member', 'Custom'] as const
export type MemberRole = (typeof MEMBER_ROLES)[number]
export const MEMBER_STATUSES = ['Active', 'Invited'] as const

export const MemberRoleType = EnumType(MEMBER_ROLES, {
  description: 'Owner, Admin and Member are built in; Custom uses customRoleId.',
})

export const TeamMember = Type.Object({
  userId: Uuid({
    description:
      "The member's user id; while the invitation is pending, the invitation's own id (an invited account’s user id is not shown). The member routes take the id shown here.",
  }),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  displayName: Type.String(),
  role: MemberRoleType,
  customRole: Nullable(Type.Object({ id: Uuid(), name: Type.String() })),
  status: EnumType(MEMBER_STATUSES, { description: 'Invited until the invitation is accepted.' }),
  emailVerified: Type.Boolean(),
  dateCreated: DateTime(),
})
export type TeamMember = Static<typeof TeamMember>

export const MemberParams = Type.Object({ userId: Uuid() })

export const ChangeRoleRequest = Type.Object({
  role: MemberRoleType,
  customRoleId: Type.Optional(
    Nullable(Uuid({ description: 'required when role is Custom: a role of this organisation' })),
  ),
})
export type ChangeRoleRequest = Static<typeof ChangeRoleRequest>

export const RoleParams = Type.Object({ roleId: Uuid() })

const PERMISSIONS_DESCRIPTION = `Module name (${PERMISSION_MODULES.join(', ')}) to bitmask: 1 view, 2 modify, 4 delete`
const MODULE_NUMBERS = `a module may also be given by its number (1 = ${PERMISSION_MODULES[0]}, 3 = ${PERMISSION_MODULES[2]} ... ${PERMISSION_MODULES.length} = ${PERMISSION_MODULES.at(-1)}) and is stored by name; an unknown name or number, a module given twice or a mask outside 0..7 is a 400 naming permissions.<key>`

export const RoleRequest = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 50,
    description: 'unique in the organisation, ignoring case',
  }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  permissions: Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 7 }), {
    description: `${PERMISSIONS_DESCRIPTION}; ${MODULE_NUMBERS}; a module left out has no rights`,
  }),
})
export type RoleRequest = Static<typeof RoleRequest>

export const Role = Type.Object({
  id: Nullable(Uuid({ description: 'null for the built-in roles' })),
  name: Type.String(),
  description: Nullable(Type.String()),
  permissions: Type.Record(Type.String(), Type.Integer(), {
    description: `${PERMISSIONS_DESCRIPTION}; every module is listed`,
  }),
  builtIn: Type.Boolean(),
  memberCount: Type.Integer({ description: 'memberships (active or invited) holding this role' }),
  dateCreated: Nullable(DateTime()),
  dateModified: Nullable(DateTime()),
})
export type Role = Static<typeof Role>
