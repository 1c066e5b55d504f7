/**
 * What the point lookup and autobatch need to keep a zone's prepared geometry (its edge index)
 * between requests: `revision`, bumped by every update, so a process knows its copy is stale
 * (processes share the database, so a cache cannot be told of changes); and `positions`, the size
 * of the geometry, so small zones come inline with the lookup and only large ones go through the
 * cache. Zones saved before this have no count and take the cache's way.
 */
export const sql = `
ALTER TABLE delivery_zones
  ADD COLUMN IF NOT EXISTS revision integer NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS positions integer;
`
