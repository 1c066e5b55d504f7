/**
 * The deliver side: vehicles, delivery zones (GeoJSON with a bounding box the point lookup
 * prefilters on), delivery plans (dispatches) and their reserved codes, the shipment columns
 * plans and status moves need, configured carriers (credentials encrypted by the application)
 * with their contacts, and in-app notifications. Shipments name a dimension preset by id only.
 */
export const sql = `
CREATE TABLE vehicles (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  registration text NOT NULL,
  name text NOT NULL,
  max_weight numeric(18, 4),
  max_volume numeric(18, 4),
  active boolean NOT NULL DEFAULT true,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX vehicles_registration_key ON vehicles (business_id, lower(registration));
CREATE INDEX vehicles_list_idx ON vehicles (business_id, date_created DESC);

-- Bounding box in plain columns: the point lookup prefilters with a GiST index on box(), which
-- PGlite has too (no PostGIS there); the exact point-in-polygon test runs in the application.
CREATE TABLE delivery_zones (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name text NOT NULL,
  colour text,
  active boolean NOT NULL DEFAULT true,
  geometry jsonb NOT NULL,
  min_longitude double precision NOT NULL,
  min_latitude double precision NOT NULL,
  max_longitude double precision NOT NULL,
  max_latitude double precision NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX delivery_zones_list_idx ON delivery_zones (business_id, date_created DESC);
CREATE INDEX delivery_zones_bbox_idx ON delivery_zones
  USING gist (box(point(min_longitude, min_latitude), point(max_longitude, max_latitude)))
  WHERE active;

CREATE TABLE delivery_plans (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  code text NOT NULL,
  name text,
  status text NOT NULL DEFAULT 'Draft',
  scheduled_date date NOT NULL,
  vehicle_id uuid REFERENCES vehicles (id),
  driver_name text,
  carrier_id integer,
  delivery_zone_ids uuid[] NOT NULL DEFAULT '{}',
  depot jsonb,
  distance_km numeric(18, 3),
  notes text,
  scheduled_at timestamptz,
  dispatched_at timestamptz,
  completed_at timestamptz,
  cancelled_at timestamptz,
  autobatched_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX delivery_plans_code_key ON delivery_plans (business_id, code);
CREATE INDEX delivery_plans_list_idx ON delivery_plans (business_id, scheduled_date DESC, status);
CREATE INDEX delivery_plans_vehicle_idx ON delivery_plans (vehicle_id) WHERE vehicle_id IS NOT NULL;

-- Codes handed out by GET /api/v1/plans/code before the plan exists (SaveDispatch consumes one).
CREATE TABLE dispatch_codes (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  code text NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, code)
);

ALTER TABLE shipments
  ADD COLUMN dimension_preset_id uuid,
  ADD COLUMN volume numeric(18, 6),
  ADD COLUMN notes text,
  ADD COLUMN delivery_plan_id uuid REFERENCES delivery_plans (id) ON DELETE SET NULL,
  ADD COLUMN stop_sequence integer,
  ADD COLUMN assigned_at timestamptz,
  ADD COLUMN dispatched_at timestamptz,
  ADD COLUMN failed_at timestamptz,
  ADD COLUMN returned_at timestamptz,
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN fail_reason text,
  ADD COLUMN proof jsonb;
CREATE INDEX shipments_list_idx ON shipments (business_id, date_created DESC);
CREATE INDEX shipments_plan_idx ON shipments (delivery_plan_id, stop_sequence) WHERE delivery_plan_id IS NOT NULL;
CREATE INDEX shipments_unassigned_idx ON shipments (business_id, scheduled_date)
  WHERE delivery_plan_id IS NULL;

CREATE TABLE carrier_configurations (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  carrier_id integer NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  is_default boolean NOT NULL DEFAULT false,
  account_reference text,
  -- AES-256-GCM: iv (12) || tag (16) || ciphertext; the key never lives in this schema.
  credentials bytea,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX carrier_configurations_carrier_key ON carrier_configurations (business_id, carrier_id);
CREATE UNIQUE INDEX carrier_configurations_default_key ON carrier_configurations (business_id) WHERE is_default;

CREATE TABLE carrier_contacts (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  carrier_id integer,
  first_name text NOT NULL,
  last_name text,
  email text,
  phone_number text,
  role text,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX carrier_contacts_list_idx ON carrier_contacts (business_id, date_created DESC);

CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  user_id uuid NOT NULL,
  title text NOT NULL,
  message text NOT NULL,
  read boolean NOT NULL DEFAULT false,
  priority text NOT NULL DEFAULT 'Medium',
  type text NOT NULL DEFAULT 'Business',
  level text NOT NULL DEFAULT 'Info',
  action_link text,
  entity_type text NOT NULL DEFAULT 'None',
  entity_id uuid,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user_idx ON notifications (user_id, business_id, date_created DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id, business_id) WHERE NOT read;
CREATE INDEX notifications_seq_idx ON notifications (user_id, seq);
`
