/**
 * Signing keys: the database keeps public halves only. Earlier versions stored the generated
 * private key here, so every copy of the database taken since holds it: such a key is retired,
 * not moved out (it signs nothing more, and verifies only the tokens it signed before, until they
 * expire; see security/signing.ts), and the column that held it is emptied and dropped. A key
 * rotation retires the replaced key the same way.
 *
 * Every change to the table notifies `cartage_credentials` with the payload `signing_keys`, so
 * running processes re-read the keys (and their key file) as soon as a rotation commits.
 */
export const sql = `
ALTER TABLE signing_keys ADD COLUMN retired_at timestamptz;
UPDATE signing_keys SET retired_at = now(), active = false, private_pkcs8 = ''
  WHERE private_pkcs8 <> '';
ALTER TABLE signing_keys DROP COLUMN private_pkcs8;

CREATE FUNCTION notify_signing_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cartage_credentials', 'signing_keys');
  RETURN NULL;
END
$$;

CREATE TRIGGER signing_keys_notify_change
  AFTER INSERT OR UPDATE OR DELETE ON signing_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_signing_key_change();
`
