import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { useWorkspace } from '../app/workspace-context'
import { splitHash, useHashPath, useHashQuery } from '../lib/hash-location'
import { type SavedView, storageKey, viewsOf, withoutView, withView } from '../lib/saved-views'
import { Field } from './Field'

/** localStorage, or nothing when the browser refuses it (private modes, a full quota). */
function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

/**
 * The list's saved views: the current filters, search, sort and page saved under a name, and each
 * saved one a link that reopens it. Kept in this browser for the signed-in person and organisation.
 */
export function SavedViews() {
  const { me } = useWorkspace()
  const [path] = useHashPath()
  const query = useHashQuery().toString()
  const key = storageKey(me.organization.id, me.user.id)
  const [stored, setStored] = useState(() => read(key))
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [said, setSaid] = useState<string | null>(null)
  const views = viewsOf(stored, path)

  const write = (text: string) => {
    try {
      localStorage.setItem(key, text)
      setStored(text)
      return true
    } catch {
      setProblem('This browser does not let the console keep views (private browsing or no space left).')
      return false
    }
  }
  const save = (event: FormEvent) => {
    event.preventDefault()
    const trimmed = name.trim()
    if (!trimmed) {
      setProblem('Name the view.')
      return
    }
    if (trimmed.length > 60) {
      setProblem('At most 60 characters.')
      return
    }
    // The path of the list the view was saved on comes from the address, not from a later page.
    const view: SavedView = { name: trimmed, query }
    if (write(withView(read(key), splitHash(location.hash).path, view))) {
      setProblem(null)
      setName('')
      setSaid(`Saved the view “${trimmed}”.`)
    }
  }

  return (
    <div className="saved-views">
      <form onSubmit={save} noValidate aria-label="Save this view" className="saved-views">
        <Field label="View name" hint="Saves the search, filters and order" problem={problem}>
          {(control) => (
            <input
              {...control}
              value={name}
              maxLength={80}
              onChange={(event) => {
                setName(event.target.value)
                setSaid(null)
              }}
            />
          )}
        </Field>
        <button type="submit" className="secondary">
          Save view
        </button>
      </form>
      {views.length > 0 && (
        <nav aria-label="Saved views">
          <ul>
            {views.map((view) => (
              <li key={view.name}>
                <Link href={`${path}${view.query ? `?${view.query}` : ''}`}>{view.name}</Link>{' '}
                <button
                  type="button"
                  className="link"
                  aria-label={`Remove the view “${view.name}”`}
                  onClick={() => {
                    write(withoutView(read(key), path, view.name))
                    setSaid(`Removed the view “${view.name}”.`)
                  }}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <span className="visually-hidden" role="status">
        {said}
      </span>
    </div>
  )
}
