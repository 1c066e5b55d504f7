import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Suspense, useEffect, useId, useState } from 'react'
import { Link, Route, Switch, useLocation } from 'wouter'
import { getUserNotificationsOptions } from '../api/generated/core/@tanstack/react-query.gen'
import { followNotifications, type Notification } from '../areas/notifications/live'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { Loading } from '../components/Loading'
import { PageHeader } from '../components/PageHeader'
import { consoleRouteFor } from '../lib/action-links'
import { GlobalSearch } from './GlobalSearch'
import * as pages from './routes'
import { useConsole } from './session-context'
import { useWorkspace } from './workspace-context'

interface NavItem {
  href: string
  label: string
  /** The permission module whose View right shows the console area. */
  permission: string
}

const NAV: NavItem[] = [
  { href: '/', label: 'Dashboard', permission: 'Insights' },
  { href: '/customers', label: 'Customers', permission: 'Customers' },
  { href: '/products', label: 'Products and stock', permission: 'Products' },
  { href: '/orders', label: 'Sales orders', permission: 'Orders' },
  { href: '/returns', label: 'Returns', permission: 'Orders' },
  { href: '/suppliers', label: 'Suppliers', permission: 'Suppliers' },
  { href: '/purchase-orders', label: 'Purchase orders', permission: 'PurchaseOrders' },
  { href: '/transfer-orders', label: 'Transfer orders', permission: 'TransferOrders' },
  { href: '/manufacturing/boms', label: 'Bills of materials', permission: 'Products' },
  { href: '/manufacturing/work-orders', label: 'Work orders', permission: 'WorkOrders' },
  { href: '/delivery', label: 'Delivery', permission: 'Shipments' },
  { href: '/delivery/zones', label: 'Delivery zones', permission: 'Shipments' },
  { href: '/vehicles', label: 'Vehicles', permission: 'Vehicles' },
  { href: '/carriers', label: 'Carriers', permission: 'Integrations' },
  { href: '/package-sizes', label: 'Package sizes', permission: 'Products' },
  { href: '/notifications', label: 'Notifications', permission: 'Settings' },
  { href: '/sql', label: 'SQL console', permission: 'Insights' },
  { href: '/audit', label: 'Audit log', permission: 'Settings' },
  { href: '/webhooks', label: 'Webhooks', permission: 'Integrations' },
  { href: '/team', label: 'Team and roles', permission: 'TeamAndRoles' },
  { href: '/settings', label: 'Business settings', permission: 'Settings' },
]

/** Whether a navigation entry is the page shown (or a page inside its area). */
export function isCurrent(href: string, location: string): boolean {
  if (href === '/') return location === '/'
  if (href === '/delivery')
    return location === '/delivery' || /^\/delivery\/(plans|shipments)(\/|$)/.test(location)
  return location === href || location.startsWith(`${href}/`)
}

const unreadQuery = getUserNotificationsOptions({ query: { includeRead: false, Page: 1, PageSize: 1 } })

/** The frame around every page: who and where you are, the areas, live notifications. */
export function Shell() {
  const { session } = useConsole()
  const workspace = useWorkspace()
  const { me, business } = workspace
  const [location] = useLocation()
  const queryClient = useQueryClient()
  const businessSelect = useId()
  const [toasts, setToasts] = useState<Notification[]>([])
  const canNotify = workspace.can('Settings', 'View')
  const unread = useQuery({ ...unreadQuery, enabled: canNotify, refetchInterval: 120_000 })

  // Live notifications: the unread count and the lists refresh, and a short note shows for a while.
  useEffect(() => {
    if (!canNotify) return
    const stop = new AbortController()
    void followNotifications(stop.signal, (notification) => {
      void queryClient.invalidateQueries({ queryKey: [{ _id: 'getUserNotifications' }] })
      setToasts((current) => [notification, ...current].slice(0, 3))
      setTimeout(() => setToasts((current) => current.filter((t) => t.id !== notification.id)), 10_000)
    })
    return () => stop.abort()
  }, [canNotify, queryClient])

  const unreadCount = unread.data?.totalCount ?? 0
  const nav = NAV.filter((item) => workspace.can(item.permission, 'View'))
  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header className="topbar">
        <div className="brand">
          Cartage <small>{me.organization.name}</small>
        </div>
        <GlobalSearch />
        {me.businesses.length > 1 ? (
          <label htmlFor={businessSelect}>
            Business
            <select
              id={businessSelect}
              value={business.id}
              onChange={(event) => workspace.chooseBusiness(event.target.value)}
            >
              {me.businesses.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.displayName}
                  {b.parentBusinessId ? '' : ' (head office)'}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span>{business.displayName}</span>
        )}
        {canNotify && (
          <Link href="/notifications" className="bell" aria-label={`Notifications, ${unreadCount} unread`}>
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" />
            </svg>
            <span className="count" aria-hidden="true">
              {unreadCount}
            </span>
          </Link>
        )}
        <span>{me.user.displayName}</span>
        <button type="button" className="link" onClick={() => void session.signOut()}>
          Sign out
        </button>
      </header>
      <nav className="sidenav" aria-label="Areas">
        <ul>
          {nav.map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={isCurrent(item.href, location) ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <ErrorBoundary key={location}>
          <Suspense fallback={<Loading label="Opening the page…" />}>
            <Switch>
              <Route path="/" component={pages.Dashboard} />
              <Route path="/customers" component={pages.CustomerList} />
              <Route path="/customers/:id" component={pages.CustomerDetail} />
              <Route path="/products" component={pages.ProductList} />
              <Route path="/products/:id" component={pages.ProductDetail} />
              <Route path="/orders" component={pages.OrderList} />
              <Route path="/orders/:id" component={pages.OrderDetail} />
              <Route path="/returns" component={pages.ReturnList} />
              <Route path="/returns/:id" component={pages.ReturnDetail} />
              <Route path="/suppliers" component={pages.SupplierList} />
              <Route path="/suppliers/:id" component={pages.SupplierDetail} />
              <Route path="/purchase-orders" component={pages.PurchaseOrderList} />
              <Route path="/purchase-orders/:id" component={pages.PurchaseOrderDetail} />
              <Route path="/transfer-orders" component={pages.TransferOrderList} />
              <Route path="/transfer-orders/:id" component={pages.TransferOrderDetail} />
              <Route path="/audit" component={pages.AuditLog} />
              <Route path="/manufacturing/boms" component={pages.BomList} />
              <Route path="/manufacturing/boms/:id" component={pages.BomDetail} />
              <Route path="/manufacturing/work-orders" component={pages.WorkOrderList} />
              <Route path="/manufacturing/work-orders/:id" component={pages.WorkOrderDetail} />
              <Route path="/delivery" component={pages.DeliveryToday} />
              <Route path="/delivery/plans/:id" component={pages.PlanDetail} />
              <Route path="/delivery/plans/:id/driver" component={pages.DriverStops} />
              <Route path="/delivery/shipments" component={pages.ShipmentList} />
              <Route path="/delivery/shipments/:id" component={pages.ShipmentDetail} />
              <Route path="/delivery/zones" component={pages.Zones} />
              <Route path="/notifications" component={pages.Notifications} />
              <Route path="/sql" component={pages.SqlConsole} />
              <Route path="/vehicles" component={pages.Vehicles} />
              <Route path="/carriers" component={pages.Carriers} />
              <Route path="/package-sizes" component={pages.PackageSizes} />
              <Route path="/webhooks" component={pages.Webhooks} />
              <Route path="/team" component={pages.Team} />
              <Route path="/settings" component={pages.BusinessSettings} />
              <Route>
                <PageHeader title="Page not found" />
                <p>
                  There is no page at this address. <Link href="/">Go to the dashboard</Link>.
                </p>
              </Route>
            </Switch>
          </Suspense>
        </ErrorBoundary>
      </main>
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => {
          const route = consoleRouteFor(toast)
          return (
            <div className="toast" key={toast.id}>
              <strong>{toast.title}</strong>
              <div>{toast.message}</div>
              <div className="actions">
                {route && <Link href={route}>Open</Link>}
                <button
                  type="button"
                  className="link"
                  onClick={() => setToasts((current) => current.filter((t) => t.id !== toast.id))}
                >
                  Dismiss
                </button>
              </div>
            </div>
          )
        })}
      </div>
    </div>
  )
}
