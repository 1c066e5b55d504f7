/**
 * A shipment's public tracking link: the unguessable token a customer's browser brings with no
 * sign-in, and which organisation schema and shipment it opens. Kept in the global schema, as the
 * token is the only thing the request carries. `mail_due` marks a link the tracking mail worker is
 * still to send to `email_to` (the customer's contact), set when the shipment's plan is dispatched.
 */
export const sql = `
CREATE TABLE tracking_links (
  token text PRIMARY KEY,
  schema_name text NOT NULL,
  business_id uuid NOT NULL,
  shipment_id uuid NOT NULL,
  email_to text,
  mail_due boolean NOT NULL DEFAULT false,
  mail_attempts integer NOT NULL DEFAULT 0,
  emailed_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  UNIQUE (schema_name, shipment_id)
);
CREATE INDEX tracking_links_mail_due_idx ON tracking_links (date_created) WHERE mail_due;
`
