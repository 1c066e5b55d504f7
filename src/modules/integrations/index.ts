/**
 * What other parts of Cartage may use of the integrations area; everything else in its folders is
 * its own.
 */
export {
  /** The webhook delivery worker: `start()`/`stop()` with a served Core API, `runOnce()` in tests. */
  WebhookWorker,
} from './webhooks/webhook-worker.js'
