import type { HttpApp } from '../../../http/kernel.js'
import type { AppDeps } from '../../../platform/deps.js'
import { registerMemberRoutes } from './members.routes.js'
import { registerRoleRoutes } from './roles.routes.js'

/** TeamAndRoles (M7): members of the organisation and its custom roles. */
export function registerTeamRoutes(app: HttpApp, deps: AppDeps) {
  registerMemberRoutes(app, deps)
  registerRoleRoutes(app, deps)
}
