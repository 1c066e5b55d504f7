/**
 * The customer side of a business: settings, customer groups, customers with contacts,
 * attachments, activity traces and metadata, stored files, orders, and the shipment records the
 * customer analytics read. Deleting a customer or group sets `deleted_at` so history still resolves.
 */
export const sql = `
-- Per-business counters for human-readable codes (ORD-000123); one row locked per increment.
CREATE TABLE sequences (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name text NOT NULL,
  last_value bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, name)
);

CREATE TABLE settings (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  key text NOT NULL,
  value text NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, key)
);

CREATE TABLE customer_groups (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  deleted_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customer_groups_name_key ON customer_groups (business_id, lower(name)) WHERE deleted_at IS NULL;

CREATE TABLE customers (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  code text NOT NULL,
  name text NOT NULL,
  email text,
  phone_number text,
  customer_group_id uuid REFERENCES customer_groups (id),
  type text NOT NULL DEFAULT 'Individual',
  status text NOT NULL DEFAULT 'Active',
  billing_address jsonb,
  shipping_address jsonb,
  metadata jsonb NOT NULL DEFAULT '{}',
  notes text,
  deleted_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_code_key ON customers (business_id, code);
CREATE INDEX customers_list_idx ON customers (business_id, date_created DESC) WHERE deleted_at IS NULL;
CREATE INDEX customers_name_idx ON customers (business_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX customers_group_idx ON customers (customer_group_id) WHERE deleted_at IS NULL;

CREATE TABLE customer_contacts (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  first_name text NOT NULL,
  last_name text,
  email text,
  phone_number text,
  role text,
  is_primary boolean NOT NULL DEFAULT false,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_contacts_customer_idx ON customer_contacts (customer_id);

CREATE TABLE files (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  storage_key text NOT NULL UNIQUE,
  file_name text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  uploaded_by_user_id uuid,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX files_business_idx ON files (business_id, date_created DESC);

CREATE TABLE customer_attachments (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  type text NOT NULL,
  file_id uuid REFERENCES files (id),
  title text,
  url text,
  created_by_user_id uuid,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_attachments_customer_idx ON customer_attachments (customer_id);

CREATE TABLE customer_configurations (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  key text NOT NULL,
  value text NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, key)
);

CREATE TABLE orders (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  code text NOT NULL,
  customer_id uuid NOT NULL REFERENCES customers (id),
  status text NOT NULL DEFAULT 'Draft',
  order_date timestamptz NOT NULL,
  currency text NOT NULL,
  delivery_address jsonb,
  notes text,
  total numeric(18, 4) NOT NULL DEFAULT 0,
  confirmed_at timestamptz,
  fulfilled_at timestamptz,
  cancelled_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX orders_code_key ON orders (business_id, code);
CREATE INDEX orders_list_idx ON orders (business_id, order_date DESC);
CREATE INDEX orders_customer_idx ON orders (customer_id, order_date);

CREATE TABLE order_lines (
  id uuid PRIMARY KEY,
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  line_number integer NOT NULL,
  product_id uuid,
  description text,
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  unit_price numeric(18, 4) NOT NULL CHECK (unit_price >= 0),
  line_total numeric(18, 4) GENERATED ALWAYS AS (round(quantity * unit_price, 4)) STORED,
  UNIQUE (order_id, line_number)
);

-- Shipments: the records customer analytics count (deliveries, fulfilment cost). The shipments
-- module adds its operations and further columns in later migrations.
CREATE TABLE shipments (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  code text NOT NULL,
  order_id uuid REFERENCES orders (id),
  customer_id uuid REFERENCES customers (id),
  status text NOT NULL DEFAULT 'Pending',
  pickup_address jsonb,
  delivery_address jsonb,
  weight numeric(18, 4),
  fulfillment_cost numeric(18, 4) NOT NULL DEFAULT 0,
  scheduled_date timestamptz,
  delivered_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX shipments_code_key ON shipments (business_id, code);
CREATE INDEX shipments_customer_idx ON shipments (customer_id, status);

CREATE TABLE activity_traces (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES customers (id),
  order_id uuid REFERENCES orders (id),
  type text NOT NULL,
  note text,
  source text NOT NULL,
  created_by_user_id uuid,
  occurred_at timestamptz NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_traces_customer_idx ON activity_traces (customer_id, occurred_at DESC, id);
`
