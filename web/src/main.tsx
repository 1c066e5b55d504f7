import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { takeHandoffToken } from './lib/handoff'

// A one-time token handed over by another application (/#/handoff?token=...) is taken out of the
// address at once, so it stays in neither the history nor a bookmark.
const handoffToken = takeHandoffToken(window.location, window.history)

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <App handoffToken={handoffToken} />
    </StrictMode>,
  )
