/**
 * When a shipment may be delivered and how long the stop takes, for the planning engine; and the
 * arrival and departure planning its day gave it (cleared when its stop changes by other means).
 * Windows are [{ "start", "end" }] instants as ISO text, sorted and not overlapping (checked when saved).
 */
export const sql = `
ALTER TABLE shipments
  ADD COLUMN delivery_windows jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN service_minutes numeric CHECK (service_minutes >= 0),
  ADD COLUMN planned_arrival timestamptz,
  ADD COLUMN planned_departure timestamptz;
`
