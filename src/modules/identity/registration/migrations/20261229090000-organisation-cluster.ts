/**
 * Which PostgreSQL cluster holds each organisation's schema: `main` is DATABASE_URL's, where the
 * global schema lives and every organisation made before clusters were configured; the others are
 * named by DATABASE_CLUSTERS (db/clusters.ts).
 */
export const sql = `
ALTER TABLE organizations ADD COLUMN cluster text NOT NULL DEFAULT 'main';
CREATE INDEX organizations_cluster_idx ON organizations (cluster);
`
