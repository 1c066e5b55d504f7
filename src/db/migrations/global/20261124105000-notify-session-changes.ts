/**
 * Processes also cache what a signed-in session may do (security/authenticator.ts, bearer state):
 * ending a session (logout, revocation, expiry moved) and moving or deleting a business notify
 * `cartage_credentials` too, so with a live listener a process trusts that state until told
 * otherwise instead of re-reading it every second.
 */
export const sql = `
CREATE TRIGGER sessions_notify_change
  AFTER UPDATE OF revoked_at, expires_at, scopes, organization_id, user_id OR DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();

CREATE TRIGGER businesses_notify_change
  AFTER UPDATE OF organization_id OR DELETE ON businesses
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
`
