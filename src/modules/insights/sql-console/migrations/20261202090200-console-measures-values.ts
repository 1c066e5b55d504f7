/**
 * The console cuts a value larger than its limit in the database, under the console role
 * (sql-console.repository.ts, cutRows), measuring it with `pg_column_size`. The catalogue
 * migration took that function from PUBLIC with the other `pg_*_size` ones, which tell the sizes
 * of relations and databases; this one only measures a value the query already holds, so PUBLIC
 * gets it back. Only a superuser may change catalogue rights: under another role nothing was taken.
 */
export const sql = `
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
    GRANT EXECUTE ON FUNCTION pg_catalog.pg_column_size("any") TO PUBLIC;
  END IF;
END $$;
`
