import { createContext, useContext, useSyncExternalStore } from 'react'
import type { ConsoleConfig } from '../api/config'
import type { SessionManager, SessionState } from '../api/session'

export interface ConsoleContextValue {
  session: SessionManager
  config: ConsoleConfig
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null)

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext)
  if (!value) throw new Error('useConsole outside the console')
  return value
}

export function useSessionState(session: SessionManager): SessionState {
  return useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.current,
  )
}
