/**
 * Webhooks of a business: its endpoints, the outbox of events (written in the transaction of the
 * change that caused them), one delivery per event and subscribed endpoint (fanned out when the
 * event is written), and the log of every attempt.
 *
 * The worker claims due deliveries with FOR UPDATE SKIP LOCKED and a lease (locked_until), so
 * several processes share the outbox and a killed process's claims come back when the lease ends.
 */
export const sql = `
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL,
  url text NOT NULL,
  description text,
  event_types text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0,
  disabled_reason text,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_business_idx ON webhook_endpoints (business_id, date_created);

CREATE TABLE webhook_events (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  type text NOT NULL,
  resource_key text NOT NULL,
  payload jsonb NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_business_idx ON webhook_events (business_id, date_created, seq);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL,
  event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_seq bigint NOT NULL,
  resource_key text NOT NULL,
  status text NOT NULL DEFAULT 'Pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  lease_token uuid,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
-- What the worker scans: pending deliveries by due time.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'Pending';
-- Ordering per resource: an earlier pending delivery of the same resource to the same endpoint.
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (endpoint_id, resource_key, event_seq)
  WHERE status = 'Pending';
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  delivery_id uuid REFERENCES webhook_deliveries (id) ON DELETE SET NULL,
  event_id uuid,
  event_type text NOT NULL,
  attempt integer NOT NULL,
  outcome text NOT NULL,
  response_status integer,
  latency_ms integer NOT NULL,
  response_body text,
  error text,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, date_created DESC, id);
`
