/**
 * The number of live customers of each business, kept by a trigger, so an unfiltered customer
 * list reads its total from one row instead of counting every customer (a business may have
 * millions). The function keeps the schema it was created in as its search_path.
 */
export const sql = `
CREATE TABLE customer_counts (
  business_id uuid PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
  live bigint NOT NULL DEFAULT 0
);
INSERT INTO customer_counts (business_id, live)
  SELECT business_id, count(*) FROM customers WHERE deleted_at IS NULL GROUP BY business_id;

CREATE FUNCTION count_live_customers() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  delta integer := 0;
  business uuid;
BEGIN
  IF TG_OP = 'INSERT' THEN
    business := NEW.business_id;
    IF NEW.deleted_at IS NULL THEN delta := 1; END IF;
  ELSIF TG_OP = 'DELETE' THEN
    business := OLD.business_id;
    IF OLD.deleted_at IS NULL THEN delta := -1; END IF;
  ELSE
    business := NEW.business_id;
    IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN delta := -1;
    ELSIF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN delta := 1;
    END IF;
  END IF;
  IF delta <> 0 THEN
    INSERT INTO customer_counts AS c (business_id, live) VALUES (business, delta)
      ON CONFLICT (business_id) DO UPDATE SET live = c.live + excluded.live;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER customers_count_live
  AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON customers
  FOR EACH ROW EXECUTE FUNCTION count_live_customers();
`
