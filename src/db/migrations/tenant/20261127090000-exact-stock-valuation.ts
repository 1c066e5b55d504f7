/**
 * Exact moving-average valuation of the stock ledger, and a re-valuation that rewrites the entries
 * after a back-dated movement in one pass instead of one recursive step per entry.
 *
 * Until now each entry stored the moving average rounded to 6 places, and the next entry was
 * computed from that rounded value: once a receipt's effect on the average fell below 0.5e-6 it
 * was lost, and the error grew with volume. Each entry now carries the running quantity
 * (`balance`, exact), the running total value (`stock_value`: receipts add quantity x cost,
 * everything else takes quantity x average out, with no rounding) and the average derived from
 * them (`value / quantity` at each receipt, held to 20 places, so 100,000 receipts could move it
 * by 5e-16 at most). Only what the API shows is rounded (average 10 places, value 4).
 *
 * `stock_revalue` recomputes a product's entries from a point in (effective_date, seq) order to
 * its last entry: one ordered index scan, the recurrence in memory, then one UPDATE of the
 * entries whose values changed, joined by ctid. The caller must hold the product's row lock
 * (every writer of a product's ledger takes it first), so no entry changes between the scan and
 * the update. The order index no longer INCLUDEs the running values and the table keeps half of
 * each page free, so rewriting the values does not touch any index (HOT updates): a back-dated
 * entry before 100,000 others costs one scan and 100,000 in-page updates instead of 100,000
 * index insertions.
 *
 * Safe on a large ledger: the column changes rewrite nothing (a numeric losing its typmod and a
 * column added with a constant default are catalogue changes); the order index is rebuilt once
 * (one sort of the table); then the existing ledgers are recomputed product by product, each
 * product in one set-based pass (one scan, one UPDATE of the entries whose values change), so
 * memory is bounded by the largest product's ledger and no statement spans the whole table.
 */
export const sql = `
DROP INDEX stock_ledger_order_idx;
ALTER TABLE stock_ledger
  ALTER COLUMN average_cost TYPE numeric,
  ALTER COLUMN unit_cost TYPE numeric,
  ADD COLUMN stock_value numeric NOT NULL DEFAULT 0;
ALTER TABLE stock_ledger SET (fillfactor = 50);
CREATE UNIQUE INDEX stock_ledger_order_idx ON stock_ledger (product_id, effective_date, seq);
ALTER TABLE products ALTER COLUMN average_cost TYPE numeric;

-- The running values of the product's entries from (p_from_date, p_from_seq) to its last one,
-- starting from the values q0, v0, a0 before them, in one ordered index scan: a costed receipt
-- (received_cost, quantity > 0) adds quantity x cost to the value and sets the average to
-- value / quantity, or to its cost when the stock before it was empty or negative (the value is
-- then quantity x cost); every other entry moves at the average, which it leaves unchanged.
-- Nothing is rounded but the average (20 places). Materialised before the caller reads a row.
CREATE FUNCTION stock_running_values(
  p_product uuid, p_from_date timestamptz, p_from_seq bigint, q0 numeric, v0 numeric, a0 numeric)
RETURNS TABLE (tid tid, balance numeric, stock_value numeric, average_cost numeric, unit_cost numeric)
LANGUAGE plpgsql STABLE ROWS 1000 SET search_path FROM CURRENT AS $$
DECLARE
  q numeric := q0;
  v numeric := v0;
  a numeric := a0;
  e record;
BEGIN
  FOR e IN
    SELECT l.ctid AS t, l.quantity, l.received_cost FROM stock_ledger l
    WHERE l.product_id = p_product AND (l.effective_date, l.seq) >= (p_from_date, p_from_seq)
    ORDER BY l.effective_date, l.seq
  LOOP
    IF e.received_cost IS NOT NULL AND e.quantity > 0 THEN
      unit_cost := e.received_cost;
      IF q <= 0 THEN
        q := q + e.quantity; a := e.received_cost; v := q * a;
      ELSE
        q := q + e.quantity; v := v + e.quantity * e.received_cost; a := round(v / q, 20);
      END IF;
    ELSE
      unit_cost := a; q := q + e.quantity; v := v + e.quantity * a;
    END IF;
    tid := e.t; balance := q; stock_value := v; average_cost := a;
    RETURN NEXT;
  END LOOP;
END
$$;

-- Re-values the product's entries from (p_from_date, p_from_seq) to its last one: one UPDATE of
-- the entries whose values change, joined to stock_running_values by ctid (a nested loop of
-- tuple fetches, never a scan of the table). When p_check_date is given, first finds (a running
-- sum, no re-valuation) the first entry at or after (p_check_date, p_check_seq) whose balance is
-- below zero and returns it as short_*; with p_stop_at_shortfall it then returns at once, having
-- written nothing (the caller refuses the movement). first_* are the values of the entry at the
-- starting point, last_* those after the product's last entry. The caller holds the product's row
-- lock, so no entry changes between the computation and the update. work_mem keeps the running
-- values of 100,000 entries (about 10 MB) in memory; more spill to a temporary file.
CREATE FUNCTION stock_revalue(
  p_product uuid, p_from_date timestamptz, p_from_seq bigint,
  p_check_date timestamptz, p_check_seq bigint, p_stop_at_shortfall boolean)
RETURNS TABLE (revalued integer, first_balance numeric, first_unit_cost numeric, last_balance numeric,
  last_average numeric, last_value numeric, short_id uuid, short_date timestamptz, short_balance numeric)
LANGUAGE plpgsql ROWS 1 SET search_path FROM CURRENT SET jit = off SET work_mem = '64MB'
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
DECLARE
  q0 numeric := 0;
  v0 numeric := 0;
  a0 numeric := 0;
BEGIN
  SELECT l.balance, l.stock_value, l.average_cost INTO q0, v0, a0 FROM stock_ledger l
  WHERE l.product_id = p_product AND (l.effective_date, l.seq) < (p_from_date, p_from_seq)
  ORDER BY l.effective_date DESC, l.seq DESC LIMIT 1;
  IF NOT FOUND THEN
    q0 := 0; v0 := 0; a0 := 0;
  END IF;
  IF p_check_date IS NOT NULL THEN
    SELECT r.id, r.effective_date, r.running INTO short_id, short_date, short_balance FROM (
      SELECT l.id, l.effective_date, l.seq,
        q0 + sum(l.quantity) OVER (ORDER BY l.effective_date, l.seq ROWS UNBOUNDED PRECEDING) AS running
      FROM stock_ledger l
      WHERE l.product_id = p_product AND (l.effective_date, l.seq) >= (p_from_date, p_from_seq)
      ORDER BY l.effective_date, l.seq
    ) r
    WHERE r.running < 0 AND (r.effective_date, r.seq) >= (p_check_date, p_check_seq)
    ORDER BY r.effective_date, r.seq LIMIT 1;
    IF short_id IS NOT NULL AND p_stop_at_shortfall THEN
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;
  UPDATE stock_ledger t
  SET balance = x.balance, stock_value = x.stock_value, average_cost = x.average_cost, unit_cost = x.unit_cost
  FROM stock_running_values(p_product, p_from_date, p_from_seq, q0, v0, a0) x
  WHERE t.ctid = x.tid AND (t.balance, t.stock_value, t.average_cost, t.unit_cost)
    IS DISTINCT FROM (x.balance, x.stock_value, x.average_cost, x.unit_cost);
  GET DIAGNOSTICS revalued = ROW_COUNT;
  SELECT l.balance, l.unit_cost INTO first_balance, first_unit_cost FROM stock_ledger l
  WHERE l.product_id = p_product AND (l.effective_date, l.seq) >= (p_from_date, p_from_seq)
  ORDER BY l.effective_date, l.seq LIMIT 1;
  SELECT l.balance, l.average_cost, l.stock_value INTO last_balance, last_average, last_value
  FROM stock_ledger l WHERE l.product_id = p_product
  ORDER BY l.effective_date DESC, l.seq DESC LIMIT 1;
  RETURN NEXT;
END
$$;

DO $$
DECLARE
  p record;
  r record;
BEGIN
  FOR p IN SELECT id FROM products ORDER BY id LOOP
    SELECT * INTO r FROM stock_revalue(p.id, '-infinity', 0, NULL, NULL, false);
    IF r.first_balance IS NOT NULL THEN
      UPDATE products SET on_hand = r.last_balance, average_cost = round(r.last_average, 10) WHERE id = p.id;
    END IF;
  END LOOP;
END
$$;
`
