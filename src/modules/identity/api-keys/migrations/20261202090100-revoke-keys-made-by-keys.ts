/**
 * API keys could once create API keys, which then outlived the key that made them. Only a person
 * creates keys now; a key made by a key is revoked, found by its audit entry (created with an API
 * key as the actor). Keys made before the audit log existed left no such entry and stay.
 */
export const sql = `
UPDATE global.api_keys SET revoked_at = now()
  WHERE revoked_at IS NULL
    AND id::text IN (
      SELECT entity_id FROM audit_log
      WHERE entity_type = 'ApiKey' AND action = 'Created' AND actor_type = 'ApiKey'
    );
`
