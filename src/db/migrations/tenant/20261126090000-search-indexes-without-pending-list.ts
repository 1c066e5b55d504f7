/**
 * The trigram indexes of the customer `$search` write new entries straight into the index
 * (`fastupdate = off`) instead of a pending list. With a pending list every search also scans that
 * list in full, up to 4 MB of it until a vacuum merges it: with 1,000,000 customers a search that
 * matched one row took 20-50 ms instead of about 1 ms. Customers are written far less often than
 * searched, so each insert paying its own index entries is the better trade. Whatever a pending
 * list holds now is merged here.
 */
export const sql = `
ALTER INDEX customers_name_trgm_idx SET (fastupdate = off);
ALTER INDEX customers_email_trgm_idx SET (fastupdate = off);
ALTER INDEX customers_phone_trgm_idx SET (fastupdate = off);
ALTER INDEX customer_contacts_name_trgm_idx SET (fastupdate = off);
SELECT gin_clean_pending_list(index_name::regclass)
  FROM unnest(ARRAY['customers_name_trgm_idx', 'customers_email_trgm_idx', 'customers_phone_trgm_idx',
                    'customer_contacts_name_trgm_idx']) AS index_name;
`
