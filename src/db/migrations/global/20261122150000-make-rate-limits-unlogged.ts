/**
 * Rate-limit counters are hot (one upsert per limited request) and worthless after a crash:
 * unlogged, they skip the write-ahead log.
 */
export const sql = `
ALTER TABLE rate_limits SET UNLOGGED;
`
