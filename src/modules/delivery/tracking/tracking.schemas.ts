import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const TrackingTokenParams = Type.Object({
  token: Type.String({
    minLength: 16,
    maxLength: 128,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'from the tracking link',
  }),
})

export const TrackingShipmentParams = Type.Object({ shipmentId: Uuid() })

export const TrackingLinkResponse = Type.Object(
  {
    shipmentId: Uuid(),
    url: Type.String({
      description: 'the public page: no sign-in, shows status, timeline and expected day only',
    }),
    emailTo: Nullable(Type.String({ description: "the customer's contact the link is (or was) emailed to" })),
    emailedAt: Nullable(DateTime()),
  },
  { title: 'TrackingLinkResponse' },
)
export type TrackingLinkResponse = Static<typeof TrackingLinkResponse>

const HTML = { schema: { type: 'string' } }
export const TrackingPage = Type.Unsafe<string>({
  description: 'The tracking page (HTML)',
  content: { 'text/html': HTML },
})
export const TrackingPageNotFound = {
  description: 'No shipment has this tracking link (an HTML page)',
  content: { 'text/html': HTML },
}
