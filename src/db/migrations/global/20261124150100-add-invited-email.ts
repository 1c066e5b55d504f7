/**
 * The address an inviter wrote, as written. Until the invitation is accepted the organisation
 * sees it rather than the address an existing account holds (whose spelling, e.g. its letter
 * case, would tell that the account exists).
 */
export const sql = `
ALTER TABLE memberships ADD COLUMN invited_email text;
`
