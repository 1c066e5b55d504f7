/**
 * The SQL console runs each organisation's queries as that organisation's own role. PostgreSQL lets
 * every role read the catalogue, which would list other organisations' schemas, console roles,
 * tables, view definitions and sessions. Here PUBLIC loses read access to the catalogue relations
 * that list them; the application's role gets it back explicitly. Only a superuser may change
 * catalogue rights: under any other role this is skipped with a notice, and the console's parser
 * layer (which refuses every catalogue relation) is what hides them (see docs/sql-console.md).
 */
export const sql = `
DO $$
DECLARE
  relation text;
BEGIN
  IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
    RAISE NOTICE 'catalogue stays readable by every role: % is not a superuser', current_user;
    RETURN;
  END IF;
  FOREACH relation IN ARRAY ARRAY[
    'pg_namespace', 'pg_class', 'pg_attribute', 'pg_attrdef', 'pg_constraint', 'pg_index', 'pg_inherits',
    'pg_trigger', 'pg_rewrite', 'pg_depend', 'pg_description', 'pg_type', 'pg_proc', 'pg_policy',
    'pg_sequence', 'pg_statistic_ext', 'pg_publication_rel', 'pg_init_privs', 'pg_default_acl',
    'pg_roles', 'pg_user', 'pg_auth_members', 'pg_shdepend', 'pg_shdescription', 'pg_stat_activity',
    'pg_locks', 'pg_tables', 'pg_views', 'pg_indexes', 'pg_sequences', 'pg_matviews', 'pg_policies',
    'pg_rules', 'pg_stats', 'pg_stats_ext', 'pg_publication_tables', 'pg_prepared_xacts',
    'pg_stat_all_tables', 'pg_stat_user_tables', 'pg_stat_sys_tables', 'pg_statio_all_tables',
    'pg_statio_user_tables', 'pg_statio_sys_tables', 'pg_stat_all_indexes', 'pg_stat_user_indexes',
    'pg_stat_sys_indexes', 'pg_statio_all_indexes', 'pg_statio_user_indexes', 'pg_statio_sys_indexes',
    'pg_statio_all_sequences', 'pg_statio_user_sequences', 'pg_stat_user_functions',
    'pg_stat_xact_all_tables', 'pg_stat_xact_user_tables', 'pg_stat_xact_sys_tables',
    'pg_stat_xact_user_functions'
  ] LOOP
    IF to_regclass('pg_catalog.' || relation) IS NOT NULL THEN
      EXECUTE format('REVOKE SELECT ON pg_catalog.%I FROM PUBLIC', relation);
      EXECUTE format('GRANT SELECT ON pg_catalog.%I TO %I', relation, current_user);
    END IF;
  END LOOP;
END $$;
`
