import { useQueries } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import {
  getAllCustomersOptions,
  getOrdersOptions,
  getProductsOptions,
  getPurchaseOrdersOptions,
  getShipmentsOptions,
} from '../api/generated/core/@tanstack/react-query.gen'
import { Combobox, type ComboOption } from '../components/Combobox'
import { useDebounced } from '../lib/hooks'
import { useWorkspace } from './workspace-context'

const PER_KIND = 5

interface Found {
  id: string
  label: string
  detail?: string
}

/** What one kind of record is searched in: its list's `$search`, and where a hit opens. */
interface Kind {
  group: string
  permission: string
  // biome-ignore lint/suspicious/noExplicitAny: each list's generated options take their own query type
  options: (term: string) => any
  found: (data: unknown) => Found[]
  href: (id: string) => string
}

function rows<Row>(data: unknown): Row[] {
  return (data as { data?: Row[] } | undefined)?.data ?? []
}
const list = (term: string) => ({ Page: 1, PageSize: PER_KIND, $search: term })

const KINDS: Kind[] = [
  {
    group: 'Customers',
    permission: 'Customers',
    options: (term) => getAllCustomersOptions({ query: list(term) }),
    found: (data) => rows<{ id: string; name: string }>(data).map((c) => ({ id: c.id, label: c.name })),
    href: (id) => `/customers/${id}`,
  },
  {
    group: 'Products',
    permission: 'Products',
    options: (term) => getProductsOptions({ query: list(term) }),
    found: (data) =>
      rows<{ id: string; sku: string; name: string }>(data).map((p) => ({
        id: p.id,
        label: `${p.sku} ${p.name}`,
      })),
    href: (id) => `/products/${id}`,
  },
  {
    group: 'Sales orders',
    permission: 'Orders',
    options: (term) => getOrdersOptions({ query: list(term) }),
    found: (data) =>
      rows<{ id: string; code: string; customer: { name: string }; status: string }>(data).map((o) => ({
        id: o.id,
        label: o.code,
        detail: `${o.customer.name}, ${o.status}`,
      })),
    href: (id) => `/orders/${id}`,
  },
  {
    group: 'Shipments',
    permission: 'Shipments',
    options: (term) => getShipmentsOptions({ query: list(term) }),
    found: (data) =>
      rows<{ id: string; code: string; status: string }>(data).map((s) => ({
        id: s.id,
        label: s.code,
        detail: s.status,
      })),
    href: (id) => `/delivery/shipments/${id}`,
  },
  {
    group: 'Purchase orders',
    permission: 'PurchaseOrders',
    options: (term) => getPurchaseOrdersOptions({ query: list(term) }),
    found: (data) =>
      rows<{ id: string; number: string; status: string }>(data).map((p) => ({
        id: p.id,
        label: p.number,
        detail: p.status,
      })),
    href: (id) => `/purchase-orders/${id}`,
  },
]

/** Whether a key press lands in something that takes text (where `/` is typed, not a shortcut). */
const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))

/**
 * One box that finds customers, products, sales orders, shipments and purchase orders by name or
 * number (each list's own `$search`, a few of each, those the person may see). `/` or Ctrl+K
 * (⌘K) puts the cursor in it from anywhere; arrows move through the results, Enter opens one.
 */
export function GlobalSearch() {
  const { can } = useWorkspace()
  const [, go] = useLocation()
  const [text, setText] = useState('')
  const input = useRef<HTMLInputElement>(null)
  const term = useDebounced(text.trim(), 250)
  const kinds = KINDS.filter((kind) => can(kind.permission, 'View'))
  const results = useQueries({
    queries: kinds.map((kind) => ({ ...kind.options(term), enabled: term.length > 0, staleTime: 10_000 })),
  })

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey
      const k = event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey)
      if ((slash && !typingIn(event.target)) || k) {
        event.preventDefault()
        input.current?.focus()
        input.current?.select()
      }
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])

  const options: ComboOption[] = []
  const hrefs = new Map<string, string>()
  kinds.forEach((kind, index) => {
    if (term !== text.trim()) return
    for (const hit of kind.found(results[index]?.data)) {
      const id = `${kind.group}:${hit.id}`
      hrefs.set(id, kind.href(hit.id))
      options.push({
        id,
        label: hit.label,
        detail: hit.detail ? `${kind.group}: ${hit.detail}` : kind.group,
        group: kind.group,
      })
    }
  })
  const loading = term !== text.trim() || results.some((r) => r.isFetching)

  return (
    <search className="global-search" aria-label="Everything">
      <Combobox
        label="Find anything"
        placeholder="Find anything ( / or Ctrl+K )"
        text={text}
        onText={setText}
        options={options}
        loading={loading}
        emptyText={`Nothing found for “${text.trim()}”.`}
        inputRef={input}
        keyShortcuts="/ Control+K Meta+K"
        onChoose={(option) => {
          const href = hrefs.get(option.id)
          setText('')
          input.current?.blur()
          if (href) go(href)
        }}
      />
    </search>
  )
}
