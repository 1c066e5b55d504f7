/**
 * Processes cache what an API key may do (security/api-key-cache.ts). Every change that can narrow
 * or end a key's rights (revocation, expiry, scopes, the creator's membership or role, a custom
 * role's permissions, the organisation) notifies `cartage_credentials` on commit; each process
 * listening empties its cache. Statement-level, so a bulk change sends one notification, and
 * PostgreSQL folds equal notifications of one transaction into one.
 */
export const sql = `
CREATE FUNCTION notify_credential_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cartage_credentials', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_notify_change
  AFTER UPDATE OF revoked_at, expires_at, scopes, business_id, organization_id, created_by_user_id, key_hash
    OR DELETE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();

CREATE TRIGGER memberships_notify_change
  AFTER UPDATE OF role, status, custom_role_id, organization_id, user_id OR DELETE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();

CREATE TRIGGER roles_notify_change
  AFTER UPDATE OF permissions OR DELETE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();

CREATE TRIGGER organizations_notify_change
  AFTER UPDATE OF schema_name OR DELETE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
`
