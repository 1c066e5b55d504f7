/**
 * At most one primary contact per customer. The contacts service already clears the others in
 * the same transaction (with the customer row locked); the index makes the rule hold even if a
 * future writer forgets to.
 */
export const sql = `
CREATE UNIQUE INDEX customer_contacts_primary_key ON customer_contacts (customer_id) WHERE is_primary;
`
