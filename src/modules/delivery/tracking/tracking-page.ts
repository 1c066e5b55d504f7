import { createHash } from 'node:crypto'

/** What the public page shows: nothing of the organisation beyond this. */
export interface TrackingView {
  status: string
  /** The day the delivery is expected (YYYY-MM-DD), when planned or scheduled. */
  expectedDay: string | null
  /** The business's time zone, in which `windows` and `plannedArrival` are written. */
  timeZone: string
  /** The delivery windows, `YYYY-MM-DD HH:mm to YYYY-MM-DD HH:mm` local. */
  windows: string[]
  /** When the planned route reaches the stop (local), while it is on its way. */
  plannedArrival: string | null
  timeline: { label: string; at: Date }[]
}

const STATUS_TEXT: Readonly<Record<string, string>> = {
  Pending: 'Order received',
  Assigned: 'Scheduled for delivery',
  InTransit: 'Out for delivery',
  Delivered: 'Delivered',
  Failed: 'Delivery attempt failed',
  Returned: 'Returned to sender',
  Cancelled: 'Cancelled',
}
export const statusText = (status: string) => STATUS_TEXT[status] ?? status

/** The page's one stylesheet; the CSP allows exactly it by its hash, and nothing else at all. */
const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}' +
  'h1{font-size:1.5rem}ol{padding-left:1.2rem}li{margin:.4rem 0}time{color:#555}.window{font-weight:600}'

export const TRACKING_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers of every tracking answer: no caching, no referrer (the URL is the secret), not indexed. */
export const TRACKING_HEADERS = {
  'content-security-policy': TRACKING_CSP,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
} as const

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string)

const shell = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">' +
  `<style>${STYLE}</style></head><body>${body}</body></html>`

const stamp = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`

export function trackingPage(view: TrackingView): string {
  const status = statusText(view.status)
  const zone = ` <small>(${escapeHtml(view.timeZone)})</small>`
  const window =
    (view.expectedDay
      ? `<p>Expected delivery: <span class="window">${escapeHtml(view.expectedDay)}</span></p>`
      : '') +
    (view.windows.length
      ? `<p>Delivery window: ${view.windows.map((w) => `<span class="window">${escapeHtml(w)}</span>`).join(', ')}${zone}</p>`
      : '') +
    (view.plannedArrival
      ? `<p>Planned arrival: <span class="window">${escapeHtml(view.plannedArrival)}</span>${zone}</p>`
      : '')
  const items = view.timeline
    .map(
      (step) =>
        `<li>${escapeHtml(step.label)} <time datetime="${step.at.toISOString()}">${stamp(step.at)}</time></li>`,
    )
    .join('')
  return shell(`${status} - delivery tracking`, `<h1>${escapeHtml(status)}</h1>${window}<ol>${items}</ol>`)
}

export const trackingNotFoundPage = () =>
  shell(
    'Delivery tracking',
    '<h1>Link not found</h1><p>This tracking link is not valid. Check the link in your email.</p>',
  )
