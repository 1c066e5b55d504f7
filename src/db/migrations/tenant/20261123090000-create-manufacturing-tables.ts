/**
 * Make and stock: products, the stock ledger (effective-dated, with the running balance and the
 * moving-average cost stored on each entry), BOMs with their lines and activation history, work
 * orders, and package-size (dimension) presets.
 */
export const sql = `
CREATE TABLE products (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  sku text NOT NULL,
  name text NOT NULL,
  description text,
  type text NOT NULL,
  unit_of_measure text NOT NULL DEFAULT 'Each',
  barcode text,
  unit_cost numeric(18, 4),
  unit_price numeric(18, 4),
  weight numeric(18, 4),
  weight_unit text,
  length numeric(18, 4),
  width numeric(18, 4),
  height numeric(18, 4),
  dimension_unit text,
  reorder_level numeric(18, 4),
  active boolean NOT NULL DEFAULT true,
  -- The latest ledger values (kept by every movement, under the product's row lock).
  on_hand numeric(18, 4) NOT NULL DEFAULT 0,
  average_cost numeric(18, 6) NOT NULL DEFAULT 0,
  archived_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX products_sku_key ON products (business_id, lower(sku));
CREATE INDEX products_list_idx ON products (business_id, date_created DESC);
CREATE INDEX products_name_idx ON products (business_id, lower(name));

-- One row per movement. balance and average_cost are the running values after this entry in
-- (effective_date, seq) order; a back-dated entry recomputes every later one in its transaction.
CREATE TABLE stock_ledger (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id),
  type text NOT NULL,
  quantity numeric(18, 4) NOT NULL,
  received_cost numeric(18, 6),
  unit_cost numeric(18, 6) NOT NULL DEFAULT 0,
  effective_date timestamptz NOT NULL,
  reason text,
  reference text,
  work_order_id uuid,
  balance numeric(18, 4) NOT NULL DEFAULT 0,
  average_cost numeric(18, 6) NOT NULL DEFAULT 0,
  created_by_user_id uuid,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX stock_ledger_order_idx ON stock_ledger (product_id, effective_date, seq)
  INCLUDE (balance, average_cost);
CREATE INDEX stock_ledger_work_order_idx ON stock_ledger (work_order_id) WHERE work_order_id IS NOT NULL;

CREATE TABLE boms (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id),
  code text NOT NULL,
  name text NOT NULL,
  revision integer NOT NULL DEFAULT 1,
  status text NOT NULL DEFAULT 'Draft',
  output_quantity numeric(18, 4) NOT NULL CHECK (output_quantity > 0),
  notes text,
  revised_from_id uuid REFERENCES boms (id),
  activated_at timestamptz,
  archived_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX boms_code_revision_key ON boms (business_id, code, revision);
CREATE UNIQUE INDEX boms_one_active_key ON boms (product_id) WHERE status = 'Active';
CREATE INDEX boms_list_idx ON boms (business_id, date_created DESC);

CREATE TABLE bom_lines (
  id uuid PRIMARY KEY,
  bom_id uuid NOT NULL REFERENCES boms (id) ON DELETE CASCADE,
  line_number integer NOT NULL,
  product_id uuid NOT NULL REFERENCES products (id),
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  scrap_percent numeric(7, 4) NOT NULL DEFAULT 0 CHECK (scrap_percent >= 0 AND scrap_percent < 100),
  notes text
);
CREATE INDEX bom_lines_bom_idx ON bom_lines (bom_id, line_number);
CREATE INDEX bom_lines_product_idx ON bom_lines (product_id);

-- Which BOM was the product's active one when: [active_from, active_to), active_to null = still.
CREATE TABLE bom_activations (
  product_id uuid NOT NULL REFERENCES products (id),
  bom_id uuid NOT NULL REFERENCES boms (id) ON DELETE CASCADE,
  active_from timestamptz NOT NULL,
  active_to timestamptz,
  PRIMARY KEY (product_id, active_from)
);

CREATE TABLE work_orders (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  code text NOT NULL,
  bom_id uuid NOT NULL REFERENCES boms (id),
  product_id uuid NOT NULL REFERENCES products (id),
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  status text NOT NULL DEFAULT 'Draft',
  planned_start timestamptz,
  planned_end timestamptz,
  notes text,
  standard_unit_cost numeric(18, 6),
  standard_total_cost numeric(18, 4),
  actual_unit_cost numeric(18, 6),
  actual_total_cost numeric(18, 4),
  quantity_produced numeric(18, 4),
  effective_date timestamptz,
  released_at timestamptz,
  started_at timestamptz,
  completed_at timestamptz,
  cancelled_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX work_orders_code_key ON work_orders (business_id, code);
CREATE INDEX work_orders_list_idx ON work_orders (business_id, date_created DESC);
CREATE INDEX work_orders_bom_idx ON work_orders (bom_id, date_created DESC);

CREATE TABLE dimension_presets (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name text NOT NULL,
  length numeric(12, 4) NOT NULL CHECK (length > 0),
  width numeric(12, 4) NOT NULL CHECK (width > 0),
  height numeric(12, 4) NOT NULL CHECK (height > 0),
  dimension_unit text NOT NULL,
  max_weight numeric(12, 4) CHECK (max_weight > 0),
  weight_unit text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  country text,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dimension_presets_one_default_key ON dimension_presets (business_id) WHERE is_default;
CREATE INDEX dimension_presets_list_idx ON dimension_presets (business_id, lower(name));
`
