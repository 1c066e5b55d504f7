/**
 * A field whose value is large (a delivery zone's geometry: up to 20,000 positions, 0.8 MB of JSON)
 * is recorded by its size and digest instead of its whole value before and after: writing both
 * copies tripled the time to save such a zone and held the embedded database's single connection
 * meanwhile. The entry still says the field changed, and the digests tell two versions apart; the
 * record itself holds the value.
 */
export const sql = `
CREATE FUNCTION audit_value(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE
    WHEN v IS NULL OR pg_column_size(v) <= 8192 THEN v
    ELSE jsonb_build_object('omitted', 'too large to record', 'bytes', octet_length(v::text), 'md5', md5(v::text))
  END
$f$;

CREATE OR REPLACE FUNCTION audit_diff(before jsonb, after jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $f$
  SELECT jsonb_object_agg(k, jsonb_build_object('before', global.audit_value(before -> k), 'after', global.audit_value(after -> k)))
  FROM jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) AS k
  WHERE before -> k IS DISTINCT FROM after -> k
    AND k !~ '(password|secret|token|credential|key_hash|private_key|signature|salt|_hash$)'
    AND k NOT IN ('date_modified', 'updated_at', 'last_used_at', 'seq', 'on_hand', 'average_cost', 'consecutive_failures')
$f$;
`
