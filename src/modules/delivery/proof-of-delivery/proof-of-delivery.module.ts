import { defineModule } from '../../../platform/module.js'
import { resolveFailedDeliveries } from './failed-deliveries.js'
import * as stopOperations from './migrations/20261213090000-stop-operations.js'
import * as stopOperationsByPlan from './migrations/20261222140000-stop-operations-by-plan.js'
import * as proofFiles from './migrations/20270102090000-proof-files.js'
import { registerProofRoutes } from './proof-of-delivery.routes.js'

/** Stop operations (arrived, delivered with proof, failed) and what a plan's completion does with failures. */
export const proofOfDeliveryModule = defineModule({
  name: 'delivery/proof-of-delivery',
  core: {
    tags: [
      {
        name: 'ProofOfDelivery',
        description:
          "A driver's stop operations: arrived, delivered with proof (recipient, signature, photos, point, time) or failed (Shipments)",
      },
    ],
    routes: registerProofRoutes,
  },
  migrations: {
    tenant: [
      { name: '20261213090000-stop-operations', sql: stopOperations.sql },
      { name: '20261222140000-stop-operations-by-plan', sql: stopOperationsByPlan.sql },
      { name: '20270102090000-proof-files', sql: proofFiles.sql },
    ],
  },
  eventHandlers: { 'failed deliveries': resolveFailedDeliveries },
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    delivery_proofs: {
      source: 'stop_operations',
      filter: 'TRUE',
      columns: [
        'id',
        'shipment_id',
        'delivery_plan_id',
        'kind',
        'occurred_at',
        'latitude',
        'longitude',
        'recipient_name',
        'signature_file_id',
        'photo_file_ids',
        'reason',
        'after_failure',
        'resolution',
        'date_created',
      ],
    },
  },
})
