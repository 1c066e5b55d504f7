/**
 * Trigram indexes make `$search` (a case-insensitive "contains") an index lookup instead of a scan
 * of every row. pg_trgm ships with PostgreSQL and is a trusted extension (PostgreSQL 13+: the
 * database owner may create it); the embedded database loads it too. Created in `global` unless
 * it is already installed elsewhere; indexes find its schema when they are created.
 */
export const sql = `
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA global;
`
