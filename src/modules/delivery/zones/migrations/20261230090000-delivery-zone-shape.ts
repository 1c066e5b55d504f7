/**
 * A zone's geometry is stored as a compact binary shape (zones/shape.ts) instead of jsonb: saving a
 * zone of 20,000 positions parsed 0.8 MB of JSON into numerics, and its audit entry printed them
 * back to text twice; reading one printed them again for the client to parse. The shape is a fifth
 * of the size, written and read as it is, and kept uncompressed out of line (its doubles do not
 * compress, and trying costs time on every save). Zones saved before are converted here, byte for
 * byte what the application writes, without an audit entry each (their content does not change),
 * and get their position count.
 */
export const sql = `
ALTER TABLE delivery_zones ADD COLUMN shape bytea;
ALTER TABLE delivery_zones ALTER COLUMN shape SET STORAGE EXTERNAL;
ALTER TABLE delivery_zones DISABLE TRIGGER USER;
UPDATE delivery_zones z SET
  shape = int4send(CASE WHEN z.geometry ->> 'type' = 'MultiPolygon' THEN 2 ELSE 1 END)
    || int4send(jsonb_array_length(g.polygons))
    || coalesce((SELECT string_agg(int4send(jsonb_array_length(p)), ''::bytea ORDER BY i)
         FROM jsonb_array_elements(g.polygons) WITH ORDINALITY AS a (p, i)), ''::bytea)
    || coalesce((SELECT string_agg(int4send(jsonb_array_length(r)), ''::bytea ORDER BY i, j)
         FROM jsonb_array_elements(g.polygons) WITH ORDINALITY AS a (p, i),
           jsonb_array_elements(p) WITH ORDINALITY AS b (r, j)), ''::bytea)
    || coalesce((SELECT string_agg(float8send((q ->> 0)::float8) || float8send((q ->> 1)::float8), ''::bytea ORDER BY i, j, k)
         FROM jsonb_array_elements(g.polygons) WITH ORDINALITY AS a (p, i),
           jsonb_array_elements(p) WITH ORDINALITY AS b (r, j),
           jsonb_array_elements(r) WITH ORDINALITY AS c (q, k)), ''::bytea),
  positions = (SELECT count(*)::int
    FROM jsonb_array_elements(g.polygons) AS a (p), jsonb_array_elements(p) AS b (r), jsonb_array_elements(r) AS c (q))
FROM (
  SELECT id, CASE WHEN geometry ->> 'type' = 'MultiPolygon' THEN geometry -> 'coordinates'
    ELSE jsonb_build_array(geometry -> 'coordinates') END AS polygons
  FROM delivery_zones
) g
WHERE g.id = z.id;
ALTER TABLE delivery_zones ENABLE TRIGGER USER;
ALTER TABLE delivery_zones ALTER COLUMN shape SET NOT NULL;
ALTER TABLE delivery_zones DROP COLUMN geometry;
`
