import { Component, type ReactNode } from 'react'

/**
 * A page that fails to render (or whose code cannot be fetched after an update) shows what to do
 * instead of a blank screen; the rest of the console keeps working.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null }

  static getDerivedStateFromError(error: Error) {
    return { error }
  }

  override render() {
    if (!this.state.error) return this.props.children
    const stale = /dynamically imported module|Failed to fetch/i.test(this.state.error.message)
    return (
      <div className="notice error" role="alert">
        <p className="title">{stale ? 'The console was updated' : 'This page failed to show'}</p>
        <p>{stale ? 'A newer version of the console is on the server.' : this.state.error.message}</p>
        <p>Reload the page to continue.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    )
  }
}
