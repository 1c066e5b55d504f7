import { conflict, forbidden, notFound } from '../../../errors.js'
import type { AuthContext } from '../../../security/auth-context.js'
import { authErrors } from '../../../security/authenticator.js'

/** The team module's error codes (tests assert these, never the message). */
export const memberNotFound = () =>
  notFound('member_not_found', 'No member of this organisation has this id.')

/** What only an owner may do; a key made by an owner is refused with a code of its own. */
export const ownerRequired = (action: string, auth: AuthContext) =>
  auth.kind === 'apiKey'
    ? authErrors.personOnly(`An API key cannot ${action}: only an owner, signed in, may.`)
    : forbidden('owner_required', `Only an owner of the organisation may ${action}.`)

export const lastOwner = () =>
  conflict(
    'last_owner',
    'The organisation must keep at least one active owner; make someone else owner first.',
  )

/** A non-owner handing out rights they do not hold themselves (`what`: a role, or a new role). */
export const permissionExceedsCaller = (what: 'grant a role' | 'create a role') =>
  forbidden('permission_exceeds_caller', `You cannot ${what} with rights you do not hold.`)

export const roleNotFound = () => notFound('role_not_found', 'This organisation has no role with this id.')

export const roleNameTaken = () =>
  conflict('role_name_taken', 'A role with this name already exists (names ignore case).')

export const roleInUse = () =>
  conflict('role_in_use', 'Members still hold this role; give them another role before deleting it.')
