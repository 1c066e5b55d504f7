/** The business record in full; the global index only says which organisation owns it. */
export const sql = `
CREATE TABLE businesses (
  id uuid PRIMARY KEY,
  parent_business_id uuid REFERENCES businesses (id),
  registered_name text NOT NULL,
  display_name text NOT NULL,
  registration_number text,
  email text,
  phone_number text,
  website text,
  address jsonb,
  currency text NOT NULL DEFAULT 'USD',
  timezone text NOT NULL DEFAULT 'UTC',
  requires_order_integration boolean NOT NULL DEFAULT false,
  requires_order_fulfillment boolean NOT NULL DEFAULT false,
  requires_accounting_integration boolean NOT NULL DEFAULT false,
  requires_dispatch_builder boolean NOT NULL DEFAULT false,
  multiple_branches boolean NOT NULL DEFAULT false,
  fulfillment_types text[] NOT NULL DEFAULT '{}',
  add_ons text[] NOT NULL DEFAULT '{}',
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX businesses_parent_business_id_idx ON businesses (parent_business_id);
`
