/**
 * Files stored before files had a purpose, and images uploaded as attachments, that a delivery
 * already names as its proof (a stop's signature or photos, a delivered shipment's proof file)
 * become Proof, as reporting a delivery now does, so Shipments View may download them. Only the
 * image types the proof upload takes; without an audit entry each (nobody changed them).
 */
export const sql = `
ALTER TABLE files DISABLE TRIGGER USER;
UPDATE files f SET purpose = 'Proof'
WHERE f.purpose = 'Attachment'
  AND f.content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif')
  AND (
    EXISTS (SELECT 1 FROM stop_operations o
      WHERE o.business_id = f.business_id AND (o.signature_file_id = f.id OR f.id = ANY (o.photo_file_ids)))
    OR EXISTS (SELECT 1 FROM shipments s
      WHERE s.business_id = f.business_id AND s.proof ->> 'fileId' = f.id::text)
  );
ALTER TABLE files ENABLE TRIGGER USER;
`
