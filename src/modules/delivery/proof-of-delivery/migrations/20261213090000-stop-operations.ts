/**
 * What a driver reports at each stop: arrived, delivered with proof (recipient, signature image,
 * photos, point and time) or failed with a reason. One arrival per shipment and plan, enforced by
 * the partial unique index so two taps of "arrived" cannot both count. `resolution` records what
 * completing the plan did with a failed delivery.
 */
export const sql = `
CREATE TABLE stop_operations (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL,
  shipment_id uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  delivery_plan_id uuid,
  kind text NOT NULL CHECK (kind IN ('Arrived', 'Delivered', 'Failed')),
  occurred_at timestamptz NOT NULL,
  latitude numeric(9, 6),
  longitude numeric(9, 6),
  recipient_name text,
  signature_file_id uuid REFERENCES files (id),
  photo_file_ids uuid[] NOT NULL DEFAULT '{}',
  note text,
  reason text,
  after_failure text CHECK (after_failure IN ('Replan', 'ReturnToStock')),
  resolution text CHECK (resolution IN ('Replanned', 'Returned')),
  recorded_by_user_id uuid,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stop_operations_shipment_idx ON stop_operations (business_id, shipment_id, occurred_at);
CREATE UNIQUE INDEX stop_operations_one_arrival ON stop_operations (shipment_id, (coalesce(delivery_plan_id::text, '')))
  WHERE kind = 'Arrived';
CREATE INDEX stop_operations_plan_failed_idx ON stop_operations (delivery_plan_id) WHERE kind = 'Failed';
`
