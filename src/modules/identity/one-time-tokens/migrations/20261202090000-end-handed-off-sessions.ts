/**
 * API keys could once mint one-time tokens, so a hand-off could turn a key into a person's session
 * that outlived the key's revocation. Neither a one-time token nor a session records whether a key
 * or a person minted it, so every hand-off still open ends here: unredeemed tokens are spent, and
 * every live session bound to a business (only a redeemed one-time token makes those) is revoked.
 * The applications holding them sign in again through a person's hand-off. Sessions from login
 * have no business and are untouched.
 */
export const sql = `
UPDATE one_time_tokens SET used_at = now() WHERE used_at IS NULL;
UPDATE sessions SET revoked_at = now(), revoked_reason = 'handoff_withdrawn'
  WHERE business_id IS NOT NULL AND revoked_at IS NULL;
`
