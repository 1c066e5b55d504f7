import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { getBusinessOptions, getMeOptions } from '../api/generated/core/@tanstack/react-query.gen'
import { ErrorNotice } from '../components/ErrorNotice'
import { Loading } from '../components/Loading'
import { Shell } from './Shell'
import { useConsole } from './session-context'
import {
  type Action,
  allows,
  pickBusiness,
  WorkspaceContext,
  type Workspace as WorkspaceValue,
} from './workspace-context'

const lastBusinessKey = (organizationId: string) => `cartage.console.business.${organizationId}`

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

/**
 * The signed-in person's workspace: who they are and which businesses they may use (/api/me), the
 * business they act in (X-Business-Id on every request), and the console around the pages.
 */
export function Workspace({
  organizationId,
  handedOffBusinessId,
}: {
  organizationId: string
  handedOffBusinessId: string | null
}) {
  const { session } = useConsole()
  const queryClient = useQueryClient()
  const me = useQuery({ ...getMeOptions(), staleTime: 60_000 })
  const [businessId, setBusinessId] = useState<string | null>(null)

  // The business to open once the businesses are known: a hand-off names one; else the last used.
  useEffect(() => {
    if (!me.data || businessId) return
    const chosen = pickBusiness(me.data.data.businesses, [
      handedOffBusinessId,
      readStored(lastBusinessKey(organizationId)),
    ])
    if (chosen) {
      session.businessId = chosen.id
      setBusinessId(chosen.id)
    }
  }, [me.data, businessId, handedOffBusinessId, organizationId, session])

  const chooseBusiness = useCallback(
    (id: string) => {
      session.businessId = id
      try {
        localStorage.setItem(lastBusinessKey(organizationId), id)
      } catch {}
      // Everything read so far belongs to the other business.
      queryClient.removeQueries({
        predicate: (query) => (query.queryKey[0] as { _id?: string })?._id !== 'getMe',
      })
      setBusinessId(id)
      window.location.hash = '#/'
    },
    [organizationId, queryClient, session],
  )

  const business = me.data?.data.businesses.find((b) => b.id === businessId)
  const settings = useQuery({
    ...getBusinessOptions(),
    enabled: Boolean(business) && Boolean(me.data && allows(me.data.data.permissions, 'Settings', 'View')),
    staleTime: 300_000,
  })

  const value = useMemo<WorkspaceValue | null>(() => {
    if (!me.data || !business) return null
    const permissions = me.data.data.permissions
    return {
      me: me.data.data,
      business,
      currency: settings.data?.data.currency ?? null,
      timeZone: settings.data?.data.timezone ?? null,
      chooseBusiness,
      can: (permission: string, action: Action) => allows(permissions, permission, action),
    }
  }, [me.data, business, settings.data, chooseBusiness])

  if (me.error)
    return (
      <main className="signin">
        <ErrorNotice error={me.error} what="Opening your workspace" onRetry={() => void me.refetch()} />
      </main>
    )
  if (me.data && me.data.data.businesses.length === 0)
    return (
      <main className="signin">
        <div className="notice warn" role="alert">
          <p className="title">No business to open</p>
          <p>Your account belongs to no business of this organisation. Ask an owner to invite you to one.</p>
        </div>
        <button type="button" onClick={() => void session.signOut()}>
          Sign out
        </button>
      </main>
    )
  if (!value)
    return (
      <main className="signin">
        <Loading label="Opening your workspace…" />
      </main>
    )
  return (
    <WorkspaceContext.Provider value={value}>
      <Shell key={value.business.id} />
    </WorkspaceContext.Provider>
  )
}
