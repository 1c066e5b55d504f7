/**
 * Whether a shipment's weight and volume are derived: Cartage sets them, when the client gives none,
 * from what the shipment carries (its lines' products) and its package-size preset, and keeps them
 * following those as they change. Shipments saved before, and rows written by other means, are not
 * derived: they keep what they have.
 */
export const sql = `
ALTER TABLE shipments ADD COLUMN weight_derived boolean NOT NULL DEFAULT false,
                      ADD COLUMN volume_derived boolean NOT NULL DEFAULT false;
`
