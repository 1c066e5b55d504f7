import { notFound } from '../../../errors.js'

/** The webhooks module's error codes (tests assert these, never the message). */
export const endpointNotFound = () =>
  notFound('webhook_endpoint_not_found', 'No webhook endpoint of this business has this id.')

export const eventNotFound = () =>
  notFound('webhook_event_not_found', 'No webhook event of this business has this id.')
