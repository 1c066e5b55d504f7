/** The dashboard's returns figure reads the returns credited (received or written off) by when. */
export const sql = `
CREATE INDEX returns_insights_credited_idx ON returns (business_id, (coalesce(received_at, written_off_at)))
  WHERE status IN ('Received', 'WrittenOff');
`
