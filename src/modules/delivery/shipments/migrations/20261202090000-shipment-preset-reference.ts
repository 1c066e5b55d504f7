/**
 * A shipment's package-size preset is one of its business's presets (checked when it is saved);
 * references an earlier release let through (another business's preset, or none at all) are
 * cleared, and deleting a preset clears the shipments' references to it rather than leaving them
 * dangling. The partial index keeps that deletion from scanning every shipment.
 */
export const sql = `
UPDATE shipments s SET dimension_preset_id = NULL
  WHERE dimension_preset_id IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM dimension_presets p WHERE p.id = s.dimension_preset_id AND p.business_id = s.business_id
    );
ALTER TABLE shipments ADD CONSTRAINT shipments_dimension_preset_id_fkey
  FOREIGN KEY (dimension_preset_id) REFERENCES dimension_presets (id) ON DELETE SET NULL;
CREATE INDEX shipments_dimension_preset_idx ON shipments (dimension_preset_id) WHERE dimension_preset_id IS NOT NULL;
`
