import { createContext, useContext } from 'react'
import type { MeResponse } from '../api/generated/core/types.gen'

export type Business = MeResponse['businesses'][number]
export type Action = 'View' | 'Modify' | 'Delete'
const BITS: Record<Action, number> = { View: 1, Modify: 2, Delete: 4 }

export interface Workspace {
  me: MeResponse
  business: Business
  /** The business's currency (ISO 4217), when the caller may read the business's settings. */
  currency: string | null
  /** The business's IANA time zone, when the caller may read the business's settings. */
  timeZone: string | null
  chooseBusiness: (businessId: string) => void
  can: (permission: string, action: Action) => boolean
}

export const WorkspaceContext = createContext<Workspace | null>(null)

export function useWorkspace(): Workspace {
  const value = useContext(WorkspaceContext)
  if (!value) throw new Error('useWorkspace outside a signed-in workspace')
  return value
}

/** Whether the permissions of /api/me allow an action in a permission module (bitmask: 1 view, 2 modify, 4 delete). */
export function allows(permissions: Record<string, number>, permission: string, action: Action): boolean {
  return ((permissions[permission] ?? 0) & BITS[action]) !== 0
}

/** The business to open: the handed-off one, the last one used, the head office, or the first. */
export function pickBusiness(
  businesses: readonly Business[],
  wanted: readonly (string | null | undefined)[],
): Business | undefined {
  for (const id of wanted) {
    const found = id ? businesses.find((b) => b.id === id) : undefined
    if (found) return found
  }
  return businesses.find((b) => !b.parentBusinessId) ?? businesses[0]
}
