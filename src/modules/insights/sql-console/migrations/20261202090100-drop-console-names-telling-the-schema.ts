/**
 * Earlier releases named each organisation's console role `cartage_console_<schema>` and its
 * console schema `<schema>_console`, which a query could read back (`current_user`). The console
 * now uses an opaque name (console-role.ts) and builds it on an organisation's next query; this
 * drops the old ones of every organisation now, not only of those that query again. A role still
 * granted something in another database of the cluster stays (it reaches nothing here any more).
 */
export const sql = `
DO $$
DECLARE
  tenant text;
BEGIN
  FOR tenant IN SELECT schema_name FROM global.organizations LOOP
    EXECUTE format('DROP SCHEMA IF EXISTS %I CASCADE', tenant || '_console');
    BEGIN
      EXECUTE format('DROP ROLE IF EXISTS %I', 'cartage_console_' || tenant);
    EXCEPTION WHEN dependent_objects_still_exist OR insufficient_privilege THEN NULL;
    END;
  END LOOP;
END $$;
`
