/**
 * The decision record of a write that spans main and an organisation's other cluster
 * (db/clusters.ts, globalAndOrganisation): the organisation's part is prepared there
 * (PREPARE TRANSACTION `gid`), this row is written in main's transaction, and main's commit decides.
 * A prepared transaction found later (a crash, a lost connection) is committed if its row is here
 * with `committed`, and rolled back otherwise; the row is removed once the prepared one is settled.
 */
export const sql = `
CREATE TABLE cluster_commits (
  gid text PRIMARY KEY,
  cluster text NOT NULL,
  -- false: written by the recovery for a prepared transaction whose main transaction never committed.
  committed boolean NOT NULL DEFAULT true,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
`
