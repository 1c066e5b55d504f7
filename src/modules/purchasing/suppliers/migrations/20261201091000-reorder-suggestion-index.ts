/**
 * The reorder suggestions read the business's active, unarchived products that have a reorder level, in SKU
 * order, and keep those at or below it. This partial index holds exactly those candidates (a
 * business has few products with a reorder level among many without), so the read walks them
 * in page order. Its predicate names only columns a product rarely changes: the stock itself
 * (`on_hand`, updated by every movement) is left out so movements keep their HOT updates.
 */
export const sql = `
CREATE INDEX products_reorder_candidates_idx ON products (business_id, sku)
  WHERE reorder_level IS NOT NULL AND active AND archived_at IS NULL;
`
