import { defineModule } from '../../../platform/module.js'
import { registerMemberRoutes } from './members.routes.js'
import { registerRoleRoutes } from './roles.routes.js'

/** TeamAndRoles (M7): members of the organisation and its custom roles. */
export const teamModule = defineModule({
  name: 'organisation/team',
  core: {
    tags: [{ name: 'Team', description: 'Members of the organisation and custom roles (TeamAndRoles)' }],
    routes(app, deps) {
      registerMemberRoutes(app, deps)
      registerRoleRoutes(app, deps)
    },
  },
  schemaNames: {
    GetTeamMembers: { data: 'TeamMemberResponse' },
    ChangeTeamMemberRole: { body: 'ChangeTeamMemberRoleCommand', data: 'TeamMemberResponse' },
    GetRoles: { data: 'RoleResponse' },
    CreateRole: { body: 'CreateRoleCommand', data: 'RoleResponse' },
    UpdateRole: { body: 'UpdateRoleCommand', data: 'RoleResponse' },
  },
})
