/**
 * The package unit settings take the unit names products and presets use (Kg, Cm, ...) instead of
 * lower-case codes, so a value read from settings can be sent back to any unit field as it is.
 */
export const sql = `
UPDATE settings AS s SET value = replace(s.value, u.code, u.name), date_modified = now()
FROM (VALUES
  ('packages.defaultWeightUnit', 'g', 'G'), ('packages.defaultWeightUnit', 'kg', 'Kg'),
  ('packages.defaultWeightUnit', 'lb', 'Lb'), ('packages.defaultWeightUnit', 'oz', 'Oz'),
  ('packages.defaultDimensionUnit', 'mm', 'Mm'), ('packages.defaultDimensionUnit', 'cm', 'Cm'),
  ('packages.defaultDimensionUnit', 'm', 'M'), ('packages.defaultDimensionUnit', 'in', 'In'),
  ('packages.defaultDimensionUnit', 'ft', 'Ft')
) AS u (key, code, name)
WHERE s.key = u.key AND (s.value = u.code OR s.value = '"' || u.code || '"');
`
