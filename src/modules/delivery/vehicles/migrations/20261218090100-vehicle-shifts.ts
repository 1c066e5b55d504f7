/**
 * A vehicle's working day for the planning engine: its shift (hh:mm in the business's time zone),
 * where it starts and ends ({ "latitude", "longitude" }; none: the business's address) and its
 * breaks ([{ "earliest", "latest", "durationMinutes" }]).
 */
export const sql = `
ALTER TABLE vehicles
  ADD COLUMN shift_start text CHECK (shift_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  ADD COLUMN shift_end text CHECK (shift_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  ADD COLUMN start_location jsonb,
  ADD COLUMN end_location jsonb,
  ADD COLUMN breaks jsonb NOT NULL DEFAULT '[]'::jsonb;
`
