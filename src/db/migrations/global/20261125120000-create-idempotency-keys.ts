/**
 * Idempotency keys (src/http/idempotency/): one row per organisation and key, claimed by the first
 * request and completed with its answer, which retries within 24 hours get back. The key itself is
 * not stored (only a digest of it), and the answer is encrypted with a key derived from it: an answer
 * may carry a secret (a new API key's value), readable only by a caller that presents the key.
 */
export const sql = `
CREATE TABLE idempotency_keys (
  organization_id uuid NOT NULL,
  key_hash text NOT NULL,
  claim_id uuid NOT NULL,
  fingerprint text NOT NULL,
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL DEFAULT now() + interval '24 hours',
  PRIMARY KEY (organization_id, key_hash)
);
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
`
