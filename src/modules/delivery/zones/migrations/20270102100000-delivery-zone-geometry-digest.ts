/**
 * Each zone keeps the MD5 digest of its geometry (hex), written by the application with the
 * geometry (computed on the zone thread for a large one). The audit log records the geometry by
 * this digest and size (attach-audit-triggers.ts) instead of printing a zone's 0.3 MB as hex
 * into JSON and hashing it inside the database on every save, which held the embedded
 * database's one connection about 15 ms a save while every other organisation's reads waited.
 * Zones saved before get their digest here, without an audit entry each (their content does not
 * change).
 */
export const sql = `
ALTER TABLE delivery_zones ADD COLUMN geometry_digest text;
ALTER TABLE delivery_zones DISABLE TRIGGER USER;
UPDATE delivery_zones SET geometry_digest = md5(geometry);
ALTER TABLE delivery_zones ENABLE TRIGGER USER;
ALTER TABLE delivery_zones ALTER COLUMN geometry_digest SET NOT NULL;
`
