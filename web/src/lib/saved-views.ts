// Saved views: a list's state (its address's query) kept under a name, per person and
// organisation. The APIs have no per-person settings, so they live in this browser's
// localStorage, under a key naming the user and the organisation (another person, or the same
// person in another organisation, on this browser sees their own).

export interface SavedView {
  name: string
  /** The address's query: `status=Draft&sort=-total`. */
  query: string
}

type Store = Record<string, SavedView[]>

export const storageKey = (organizationId: string, userId: string) =>
  `cartage.saved-views.${organizationId}.${userId}`

function parse(text: string | null): Store {
  if (!text) return {}
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
    const store: Store = {}
    for (const [path, views] of Object.entries(value)) {
      if (!Array.isArray(views)) continue
      store[path] = views.filter(
        (v): v is SavedView =>
          typeof v === 'object' && v !== null && typeof v.name === 'string' && typeof v.query === 'string',
      )
    }
    return store
  } catch {
    return {}
  }
}

/** The views saved for one list (by its route, `/orders`), in the order saved. */
export function viewsOf(text: string | null, path: string): SavedView[] {
  return parse(text)[path] ?? []
}

/** The stored text with a view saved (a view of the same name, any letter case, is replaced). */
export function withView(text: string | null, path: string, view: SavedView): string {
  const store = parse(text)
  const others = (store[path] ?? []).filter((v) => v.name.toLowerCase() !== view.name.toLowerCase())
  store[path] = [...others, view]
  return JSON.stringify(store)
}

/** The stored text without the named view. */
export function withoutView(text: string | null, path: string, name: string): string {
  const store = parse(text)
  store[path] = (store[path] ?? []).filter((v) => v.name !== name)
  if (store[path]?.length === 0) delete store[path]
  return JSON.stringify(store)
}
