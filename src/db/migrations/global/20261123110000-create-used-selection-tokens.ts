/**
 * Selection tokens from login are single use: the first select-organization records the token's
 * id here, and a second use finds it. Rows are only needed until the token would expire anyway.
 */
export const sql = `
CREATE TABLE used_selection_tokens (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX used_selection_tokens_expires_at ON used_selection_tokens (expires_at);
`
