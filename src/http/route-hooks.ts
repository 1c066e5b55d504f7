import type { RouteOptions } from 'fastify'

type HookName = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'onSend' | 'onResponse'
// biome-ignore lint/suspicious/noExplicitAny: a hook of any kind; Fastify checks its shape when the route is added
type Hook = (...args: any[]) => unknown

/** Hooks the kernel added to routes, to keep them ahead of each route's own hooks. */
const kernelHooks = new WeakSet<Hook>()

/**
 * Adds a kernel rule to one route's own hooks (from an onRoute hook), so it runs only on the
 * routes it applies to, decided once at start-up instead of on every request. Kernel hooks run in
 * the order they are added, ahead of the hooks a route declares itself (authentication before a
 * route's rate limit), as the app's hooks did. Always a new array: Fastify copies a GET route's
 * options for its HEAD route before the onRoute hooks run, and the two must not share one.
 */
export function addRouteHook(route: RouteOptions, name: HookName, hook: Hook): void {
  const options = route as unknown as Record<HookName, unknown>
  const current = options[name]
  const existing: Hook[] = Array.isArray(current)
    ? current
    : typeof current === 'function'
      ? [current as Hook]
      : []
  let at = 0
  while (at < existing.length && kernelHooks.has(existing[at] as Hook)) at++
  kernelHooks.add(hook)
  options[name] = [...existing.slice(0, at), hook, ...existing.slice(at)]
}

/** The methods of a route (one or several). */
export const methodsOf = (route: Pick<RouteOptions, 'method'>): readonly string[] => [route.method].flat()
