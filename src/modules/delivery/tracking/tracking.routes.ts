import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import { sendHtmlPage, wantsHtml } from '../../../http/html-pages.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { trackingLinkNotFound } from './tracking.errors.js'
import {
  TrackingLinkResponse,
  TrackingPage,
  TrackingPageNotFound,
  TrackingShipmentParams,
  TrackingTokenParams,
} from './tracking.schemas.js'
import { trackingLink, trackingPageFor } from './tracking.service.js'
import { TRACKING_HEADERS } from './tracking-page.js'

const TAGS = ['Tracking']

/** The public tracking page and the link to it. */
export function registerTrackingRoutes(app: HttpApp, deps: AppDeps) {
  const page = operation(
    { public: true },
    {
      operationId: 'GetTrackingPage',
      summary: "A shipment's public tracking page (HTML, no sign-in)",
      description:
        'Opened from the link emailed to the customer when the plan is dispatched. Shows the status, the timeline and the expected ' +
        'delivery day, and nothing else of the organisation; served with a CSP that allows no script, no-store and no-referrer. ' +
        'An unknown token is a 404: a page for a browser (`Accept: text/html`), the usual error body otherwise.',
      tags: TAGS,
      params: TrackingTokenParams,
      response: TrackingPage,
      errors: [400, 404],
    },
  )
  const errorBody = (page.schema.response as Record<number, unknown>)[404]
  app.get(
    '/api/v1/track/:token',
    // A 404 is the error body, or for a browser a page: the route declares both.
    {
      ...page,
      schema: {
        ...page.schema,
        response: {
          ...page.schema.response,
          404: {
            description: TrackingPageNotFound.description,
            content: { 'application/json': { schema: errorBody }, ...TrackingPageNotFound.content },
          },
        },
      },
    },
    async (request, reply) => {
      const { status, html } = await trackingPageFor(deps.database, request.params.token)
      if (status === 404 && !wantsHtml(request)) throw trackingLinkNotFound()
      return sendHtmlPage(reply, status, html, TRACKING_HEADERS)
    },
  )
  app.post(
    '/api/v1/shipments/:shipmentId/tracking-link',
    operation(['Shipments', 'Modify'], {
      operationId: 'CreateTrackingLink',
      summary: "The shipment's public tracking link, made on first ask",
      description:
        "The same link every time. Dispatching a plan makes one for each of its shipments and emails it to the customer's contact.",
      tags: TAGS,
      params: TrackingShipmentParams,
      response: SingleResult('core', TrackingLinkResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await trackingLink(deps, businessAuthOf(request), request.params.shipmentId)),
  )
}
