/**
 * Suppliers and their terms per product. A supplier is soft-deleted (`deleted_at`) so purchase
 * orders that name it still resolve its name. Its addresses are part of the record (jsonb, as a
 * customer's); its contacts are rows of `supplier_contacts` (as a customer's), replaced by a PUT. `supplier_products` holds what the supplier sells a product at: at most
 * one row per (business, supplier, product), and at most one preferred supplier per product, which
 * the partial unique index enforces whatever two writers race. The list's `$search` (name, code,
 * email, tax number) is served by trigram indexes written without a pending list, as customers' are.
 */
export const sql = `
CREATE TABLE suppliers (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  code text NOT NULL,
  name text NOT NULL,
  email text,
  phone_number text,
  website text,
  currency text NOT NULL,
  payment_terms text NOT NULL DEFAULT 'Net30',
  lead_time_days integer NOT NULL DEFAULT 0 CHECK (lead_time_days >= 0),
  tax_number text,
  address jsonb,
  remittance_address jsonb,
  metadata jsonb NOT NULL DEFAULT '{}',
  notes text,
  is_active boolean NOT NULL DEFAULT true,
  deleted_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX suppliers_code_key ON suppliers (business_id, code);
CREATE INDEX suppliers_list_idx ON suppliers (business_id, date_created DESC) WHERE deleted_at IS NULL;
CREATE INDEX suppliers_name_idx ON suppliers (business_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX suppliers_active_idx ON suppliers (business_id, is_active, date_created DESC) WHERE deleted_at IS NULL;

CREATE TABLE supplier_contacts (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  supplier_id uuid NOT NULL REFERENCES suppliers (id) ON DELETE CASCADE,
  first_name text NOT NULL,
  last_name text,
  email text,
  phone_number text,
  role text,
  is_primary boolean NOT NULL DEFAULT false,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX supplier_contacts_supplier_idx ON supplier_contacts (supplier_id);
CREATE UNIQUE INDEX supplier_contacts_primary_key ON supplier_contacts (supplier_id) WHERE is_primary;

CREATE TABLE supplier_products (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  supplier_id uuid NOT NULL REFERENCES suppliers (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  supplier_sku text,
  unit_cost numeric(18, 6) NOT NULL CHECK (unit_cost >= 0),
  minimum_order_quantity numeric(18, 4) NOT NULL DEFAULT 0 CHECK (minimum_order_quantity >= 0),
  lead_time_days integer CHECK (lead_time_days >= 0),
  is_preferred boolean NOT NULL DEFAULT false,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX supplier_products_key ON supplier_products (business_id, supplier_id, product_id);
CREATE UNIQUE INDEX supplier_products_preferred_key ON supplier_products (business_id, product_id)
  WHERE is_preferred;
CREATE INDEX supplier_products_product_idx ON supplier_products (product_id);

DO $$
DECLARE
  trgm text := (SELECT quote_ident(n.nspname) FROM pg_extension e
                JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm');
BEGIN
  EXECUTE format('CREATE INDEX suppliers_name_trgm_idx ON suppliers USING gin (name %s.gin_trgm_ops) WITH (fastupdate = off)', trgm);
  EXECUTE format('CREATE INDEX suppliers_code_trgm_idx ON suppliers USING gin (code %s.gin_trgm_ops) WITH (fastupdate = off)', trgm);
  EXECUTE format('CREATE INDEX suppliers_email_trgm_idx ON suppliers USING gin (email %s.gin_trgm_ops) WITH (fastupdate = off)', trgm);
  EXECUTE format('CREATE INDEX suppliers_tax_number_trgm_idx ON suppliers USING gin (tax_number %s.gin_trgm_ops) WITH (fastupdate = off)', trgm);
END
$$;
`
