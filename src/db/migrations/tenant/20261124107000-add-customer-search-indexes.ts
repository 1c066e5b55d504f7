/**
 * Trigram indexes for the customer `$search` (name, email, phone number, and the first, last and
 * full name of a contact), so a search among a million customers reads only what matches. The
 * operator class is looked up in whichever schema pg_trgm was installed in.
 */
export const sql = `
DO $$
DECLARE
  trgm text := (SELECT quote_ident(n.nspname) FROM pg_extension e
                JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm');
BEGIN
  EXECUTE format('CREATE INDEX customers_name_trgm_idx ON customers USING gin (name %s.gin_trgm_ops)', trgm);
  EXECUTE format('CREATE INDEX customers_email_trgm_idx ON customers USING gin (email %s.gin_trgm_ops)', trgm);
  EXECUTE format('CREATE INDEX customers_phone_trgm_idx ON customers USING gin (phone_number %s.gin_trgm_ops)', trgm);
  EXECUTE format('CREATE INDEX customer_contacts_name_trgm_idx ON customer_contacts
    USING gin ((first_name || '' '' || coalesce(last_name, '''')) %s.gin_trgm_ops)', trgm);
END
$$;
`
