/**
 * The names an inviter gave for the person they invite. Until the invitation is accepted the
 * organisation sees these (with the email, role and status it sent), never the names of an
 * existing account in another organisation.
 */
export const sql = `
ALTER TABLE memberships ADD COLUMN invited_first_name text, ADD COLUMN invited_last_name text;
`
