import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import {
  changeTeamMemberRoleMutation,
  createRoleMutation,
  getRolesOptions,
  getTeamMembersOptions,
  inviteTeamMemberMutation,
  removeTeamMemberMutation,
  updateRoleMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { RoleResponse, TeamMemberResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { PageHeader } from '../../components/PageHeader'
import { mergedProblems } from '../../lib/form-errors'
import { integer } from '../../lib/format'
import { ApiKeys } from './ApiKeys'
import { rightsWords } from './permission-masks'
import { RightsPerModule } from './RightsPerModule'

type BuiltInRole = Exclude<TeamMemberResponse['role'], 'Custom'>

/** A role as one select value: a built-in name, or `custom:<id>`. */
const roleValue = (role: TeamMemberResponse['role'], customRoleId: string | null | undefined) =>
  role === 'Custom' && customRoleId ? `custom:${customRoleId}` : role

const roleBody = (value: string): { role: TeamMemberResponse['role']; customRoleId: string | null } =>
  value.startsWith('custom:')
    ? { role: 'Custom', customRoleId: value.slice('custom:'.length) }
    : { role: value as BuiltInRole, customRoleId: null }

function RoleOptions({ roles }: { roles: readonly RoleResponse[] }) {
  return (
    <>
      {roles.map((role) => (
        <option key={role.id ?? role.name} value={role.id ? `custom:${role.id}` : role.name}>
          {role.name}
          {role.builtIn ? '' : ' (custom)'}
        </option>
      ))}
    </>
  )
}

const refreshTeam = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all(
    ['getTeamMembers', 'getRoles'].map((_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] })),
  )

/** The organisation's people, the roles that give them rights, and its API keys. */
export default function Team() {
  const roles = useQuery(getRolesOptions())
  return (
    <>
      <PageHeader title="Team and roles" />
      <Members roles={roles.data?.data ?? []} />
      <Loaded query={roles} what="Loading the roles">
        {(loaded) => <Roles roles={loaded.data} />}
      </Loaded>
      <ApiKeys />
    </>
  )
}

function Members({ roles }: { roles: readonly RoleResponse[] }) {
  const { can, me } = useWorkspace()
  const queryClient = useQueryClient()
  const canModify = can('TeamAndRoles', 'Modify')
  const canDelete = can('TeamAndRoles', 'Delete')
  const members = useQuery(getTeamMembersOptions({ query: { Page: 1, PageSize: 100, $orderby: 'email' } }))
  const change = useMutation({ ...changeTeamMemberRoleMutation(), onSuccess: () => refreshTeam(queryClient) })
  const remove = useMutation({ ...removeTeamMemberMutation(), onSuccess: () => refreshTeam(queryClient) })
  const [removing, setRemoving] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const error = change.error ?? remove.error

  return (
    <section className="card" aria-labelledby="team-members">
      <h2 id="team-members">Members</h2>
      {note && (
        <div className="notice ok" role="status">
          {note}
        </div>
      )}
      {error ? <ErrorNotice error={error} what="Changing the member" /> : null}
      <Loaded query={members} what="Loading the members">
        {(loaded) => (
          <DataTable
            caption="Members"
            rows={loaded.data}
            rowKey={(row) => row.userId}
            columns={[
              { key: 'name', header: 'Name', render: (row) => row.displayName || '—' },
              { key: 'email', header: 'Email', render: (row) => row.email },
              {
                key: 'role',
                header: 'Role',
                render: (row) =>
                  canModify && row.userId !== me.user.id && roles.length > 0 ? (
                    <select
                      aria-label={`Role of ${row.email}`}
                      value={roleValue(row.role, row.customRole?.id)}
                      disabled={change.isPending}
                      onChange={(e) =>
                        change.mutate(
                          { path: { userId: row.userId }, body: roleBody(e.target.value) },
                          { onSuccess: () => setNote(`Changed the role of ${row.email}.`) },
                        )
                      }
                    >
                      <RoleOptions roles={roles} />
                    </select>
                  ) : (
                    (row.customRole?.name ?? row.role)
                  ),
              },
              {
                key: 'status',
                header: 'State',
                render: (row) => (
                  <span className={`badge ${row.status === 'Active' ? 'good' : 'wait'}`}>
                    {row.status === 'Active' ? 'Active' : 'Invited'}
                  </span>
                ),
              },
              {
                key: 'remove',
                header: 'Remove',
                render: (row) =>
                  !canDelete || row.userId === me.user.id ? (
                    ''
                  ) : removing === row.userId ? (
                    <span className="actions">
                      <button
                        type="button"
                        className="danger"
                        disabled={remove.isPending}
                        onClick={() =>
                          remove.mutate(
                            { path: { userId: row.userId } },
                            {
                              onSuccess: () => {
                                setRemoving(null)
                                setNote(`Removed ${row.email}.`)
                              },
                            },
                          )
                        }
                      >
                        Yes, remove {row.email}
                      </button>
                      <button type="button" className="secondary" onClick={() => setRemoving(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="link"
                      aria-label={`Remove ${row.email}`}
                      onClick={() => setRemoving(row.userId)}
                    >
                      Remove…
                    </button>
                  ),
              },
            ]}
          />
        )}
      </Loaded>
      {canModify && roles.length > 0 && <InviteForm roles={roles} onInvited={setNote} />}
    </section>
  )
}

function InviteForm({
  roles,
  onInvited,
}: {
  roles: readonly RoleResponse[]
  onInvited: (note: string) => void
}) {
  const queryClient = useQueryClient()
  const [email, setEmail] = useState('')
  const [firstName, setFirstName] = useState('')
  const [lastName, setLastName] = useState('')
  const [role, setRole] = useState('Member')
  const [local, setLocal] = useState<Record<string, string>>({})
  const invite = useMutation({ ...inviteTeamMemberMutation(), onSuccess: () => refreshTeam(queryClient) })
  const problems = mergedProblems(local, invite.error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) found.email = 'Enter the email address to invite.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    invite.mutate(
      {
        body: {
          email: email.trim(),
          firstName: firstName.trim() || null,
          lastName: lastName.trim() || null,
          ...roleBody(role),
        },
      },
      {
        onSuccess: () => {
          onInvited(`Invited ${email.trim()}: an email with a link to join is on its way.`)
          setEmail('')
          setFirstName('')
          setLastName('')
        },
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="team-invite">
      <h3 id="team-invite">Invite someone</h3>
      {invite.error ? <ErrorNotice error={invite.error} what="Inviting" /> : null}
      <div className="form-row">
        <Field label="Email to invite" problem={problems.email}>
          {(control) => (
            <input {...control} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <Field label="First name" problem={problems.firstName}>
          {(control) => (
            <input {...control} value={firstName} onChange={(e) => setFirstName(e.target.value)} />
          )}
        </Field>
        <Field label="Last name" problem={problems.lastName}>
          {(control) => <input {...control} value={lastName} onChange={(e) => setLastName(e.target.value)} />}
        </Field>
        <Field label="Role to give" problem={problems.customRoleId ?? problems.role}>
          {(control) => (
            <select {...control} value={role} onChange={(e) => setRole(e.target.value)}>
              <RoleOptions roles={roles} />
            </select>
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting…' : 'Send invitation'}
        </button>
      </div>
    </form>
  )
}

function Roles({ roles }: { roles: readonly RoleResponse[] }) {
  const { can } = useWorkspace()
  const canModify = can('TeamAndRoles', 'Modify')
  const [editing, setEditing] = useState<RoleResponse | 'new' | null>(null)
  const [note, setNote] = useState<string | null>(null)
  // Every role lists every module; the first one's order is the API's.
  const modules = Object.keys(roles[0]?.permissions ?? {})

  return (
    <section className="card" aria-labelledby="team-roles">
      <h2 id="team-roles">Roles</h2>
      <p className="muted">
        Owner, Admin and Member are built in. A custom role gives each module no rights, view, view and
        modify, or all three with delete.
      </p>
      {note && (
        <div className="notice ok" role="status">
          {note}
        </div>
      )}
      <DataTable
        caption="Roles"
        rows={roles}
        rowKey={(row) => row.id ?? row.name}
        columns={[
          { key: 'name', header: 'Role', render: (row) => row.name },
          { key: 'description', header: 'Description', render: (row) => row.description ?? '' },
          {
            key: 'rights',
            header: 'Rights',
            render: (row) => rightsWords(row.permissions),
          },
          { key: 'members', header: 'Members', number: true, render: (row) => integer(row.memberCount) },
          {
            key: 'edit',
            header: 'Edit',
            render: (row) =>
              canModify && !row.builtIn ? (
                <button
                  type="button"
                  className="link"
                  aria-label={`Edit the role ${row.name}`}
                  onClick={() => {
                    setNote(null)
                    setEditing(row)
                  }}
                >
                  Edit
                </button>
              ) : (
                ''
              ),
          },
        ]}
      />
      {canModify &&
        (editing ? (
          <RoleForm
            key={editing === 'new' ? 'new' : (editing.id ?? '')}
            role={editing === 'new' ? null : editing}
            modules={modules}
            onDone={(message) => {
              setEditing(null)
              if (message) setNote(message)
            }}
          />
        ) : (
          <div className="actions">
            <button
              type="button"
              onClick={() => {
                setNote(null)
                setEditing('new')
              }}
            >
              New role
            </button>
          </div>
        ))}
    </section>
  )
}

function RoleForm({
  role,
  modules,
  onDone,
}: {
  role: RoleResponse | null
  modules: readonly string[]
  onDone: (message: string | null) => void
}) {
  const queryClient = useQueryClient()
  const [name, setName] = useState(role?.name ?? '')
  const [description, setDescription] = useState(role?.description ?? '')
  const [masks, setMasks] = useState<Record<string, number>>(
    () => role?.permissions ?? Object.fromEntries(modules.map((m) => [m, 0])),
  )
  const [local, setLocal] = useState<Record<string, string>>({})
  const create = useMutation({ ...createRoleMutation(), onSuccess: () => refreshTeam(queryClient) })
  const update = useMutation({ ...updateRoleMutation(), onSuccess: () => refreshTeam(queryClient) })
  const error = role ? update.error : create.error
  const problems = mergedProblems(local, error)
  const title = role ? `Edit the role ${role.name}` : 'New role'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!name.trim()) found.name = 'Give the role a name.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    const body = { name: name.trim(), description: description.trim() || null, permissions: masks }
    if (role?.id)
      update.mutate(
        { path: { roleId: role.id }, body },
        { onSuccess: () => onDone(`Saved the role ${body.name}.`) },
      )
    else create.mutate({ body }, { onSuccess: () => onDone(`Created the role ${body.name}.`) })
  }

  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      {error ? <ErrorNotice error={error} what="Saving the role" /> : null}
      <div className="form-row">
        <Field label="Role name" problem={problems.name}>
          {(control) => <input {...control} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Role description" problem={problems.description}>
          {(control) => (
            <input {...control} value={description} onChange={(e) => setDescription(e.target.value)} />
          )}
        </Field>
      </div>
      <RightsPerModule
        legend="Rights per module"
        field="permissions"
        modules={modules}
        masks={masks}
        onChange={(module, mask) => setMasks((current) => ({ ...current, [module]: mask }))}
        problems={problems}
      />
      <div className="actions">
        <button type="submit" disabled={create.isPending || update.isPending}>
          {role ? 'Save role' : 'Create role'}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  )
}
