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

-- Re-values the product's entries from (p_from_date, p_from_seq) to its last one. A costed
-- receipt (received_cost, quantity > 0) adds quantity x cost to the value, and sets the average to
-- value / quantity, or to its cost when the stock before it was empty or negative (the value is
-- then quantity x cost); every other entry moves at the average, which it leaves unchanged.
-- When p_check_date is given, the first entry at or after (p_check_date, p_check_seq) whose
-- balance is below zero is returned as short_*; with p_stop_at_shortfall the function then
-- returns at once, having written nothing (the caller refuses the movement). first_* are the
-- values of the entry at the starting point, last_* those after the product's last entry.
CREATE FUNCTION stock_revalue(
  p_product uuid, p_from_date timestamptz, p_from_seq bigint,
  p_check_date timestamptz, p_check_seq bigint, p_stop_at_shortfall boolean)
RETURNS TABLE (revalued integer, first_balance numeric, first_unit_cost numeric, last_balance numeric,
  last_average numeric, last_value numeric, short_date timestamptz, short_seq bigint, short_balance numeric)
LANGUAGE plpgsql SET search_path FROM CURRENT SET jit = off AS $$
DECLARE
  q numeric := 0;
  v numeric := 0;
  a numeric := 0;
  u numeric;
  e record;
  seen integer := 0;
  n integer := 0;
  tids tid[] := '{}';
  qs numeric[] := '{}';
  vs numeric[] := '{}';
  avs numeric[] := '{}';
  us numeric[] := '{}';
BEGIN
  SELECT l.balance, l.stock_value, l.average_cost INTO q, v, a FROM stock_ledger l
  WHERE l.product_id = p_product AND (l.effective_date, l.seq) < (p_from_date, p_from_seq)
  ORDER BY l.effective_date DESC, l.seq DESC LIMIT 1;
  IF NOT FOUND THEN
    q := 0; v := 0; a := 0;
  END IF;
  FOR e IN
    SELECT l.ctid AS tid, l.effective_date, l.seq, l.quantity, l.received_cost,
      l.balance, l.stock_value, l.average_cost, l.unit_cost
    FROM stock_ledger l
    WHERE l.product_id = p_product AND (l.effective_date, l.seq) >= (p_from_date, p_from_seq)
    ORDER BY l.effective_date, l.seq
  LOOP
    IF e.received_cost IS NOT NULL AND e.quantity > 0 THEN
      u := e.received_cost;
      IF q <= 0 THEN
        q := q + e.quantity; a := u; v := q * u;
      ELSE
        q := q + e.quantity; v := v + e.quantity * u; a := round(v / q, 20);
      END IF;
    ELSE
      u := a; q := q + e.quantity; v := v + e.quantity * a;
    END IF;
    seen := seen + 1;
    IF seen = 1 THEN
      first_balance := q; first_unit_cost := u;
    END IF;
    IF q < 0 AND short_date IS NULL AND p_check_date IS NOT NULL
       AND (e.effective_date, e.seq) >= (p_check_date, p_check_seq) THEN
      short_date := e.effective_date; short_seq := e.seq; short_balance := q;
      IF p_stop_at_shortfall THEN
        RETURN NEXT;
        RETURN;
      END IF;
    END IF;
    IF e.balance <> q OR e.stock_value <> v OR e.average_cost <> a OR e.unit_cost <> u THEN
      n := n + 1; tids[n] := e.tid; qs[n] := q; vs[n] := v; avs[n] := a; us[n] := u;
    END IF;
  END LOOP;
  IF n > 0 THEN
    UPDATE stock_ledger t SET balance = x.q, stock_value = x.v, average_cost = x.a, unit_cost = x.u
    FROM unnest(tids, qs, vs, avs, us) AS x(tid, q, v, a, u) WHERE t.ctid = x.tid;
  END IF;
  revalued := n; last_balance := q; last_average := a; last_value := v;
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
