/**
 * Why a file was uploaded: a signature or photo sent through the proof upload is `Proof`, which
 * Shipments View may download; everything else is an `Attachment`, read with Customers View.
 */
export const sql = `
ALTER TABLE files ADD COLUMN purpose text NOT NULL DEFAULT 'Attachment'
  CHECK (purpose IN ('Attachment', 'Proof'));
`
