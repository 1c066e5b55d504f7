/**
 * The binary shape's column takes the name the zone's geometry always had: the audit log names a
 * changed field by its column, and entries written before the shape (and any reader of them) say
 * `geometry`. The column still holds the shape of shape.ts; only its name changes.
 */
export const sql = `
ALTER TABLE delivery_zones RENAME COLUMN shape TO geometry;
`
