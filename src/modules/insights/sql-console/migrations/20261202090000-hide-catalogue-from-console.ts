/**
 * The second wall of the SQL console, under its parser: what a console role (any role but the
 * application's) may read of the catalogue. An earlier migration hid the relations that list
 * schemas, roles, tables and sessions; this one hides all of them, and the functions that tell
 * what the relations would: settings, sessions and their SQL, the pooled connection's prepared
 * statements and cursors, statistics, object definitions and names by oid, sizes, the database.
 *
 * - every relation of `pg_catalog` and `information_schema` (and its schema's USAGE): PUBLIC
 *   loses read access, the application's role gets it back;
 * - every set-returning function of `pg_catalog` but the general-purpose ones (generate_series,
 *   unnest, regexp and string splitting, JSON), and the scalar functions named below: PUBLIC loses
 *   EXECUTE, the application's role gets it back.
 *
 * Only a superuser may change catalogue rights (the embedded database runs as one): under another
 * role this is skipped with a notice, and the parser is the console's only wall over the catalogue
 * (docs/sql-console.md). Running it again is harmless. Catalogue relations or functions that a later
 * PostgreSQL adds keep their default rights: console-role.test.ts fails on a catalogue relation or
 * set-returning function a console role can use beyond the allowed ones.
 */
export const sql = `
DO $$
DECLARE
  target text;
BEGIN
  IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
    RAISE NOTICE 'catalogue stays readable by every role: % is not a superuser', current_user;
    RETURN;
  END IF;
  FOR target IN
    SELECT format('%I.%I', n.nspname, c.relname) FROM pg_catalog.pg_class c
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
  LOOP
    EXECUTE format('REVOKE ALL ON %s FROM PUBLIC', target);
    EXECUTE format('GRANT SELECT ON %s TO %I', target, current_user);
  END LOOP;
  -- Column grants outlive a table's REVOKE (pg_subscription gives PUBLIC all columns but one).
  FOR target IN
    SELECT format('REVOKE ALL (%I) ON %I.%I FROM PUBLIC', a.attname, n.nspname, c.relname)
    FROM pg_catalog.pg_attribute a
    JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname IN ('pg_catalog', 'information_schema') AND a.attacl IS NOT NULL AND a.attnum > 0
  LOOP
    EXECUTE target;
  END LOOP;
  REVOKE ALL ON SCHEMA information_schema FROM PUBLIC;
  EXECUTE format('GRANT USAGE ON SCHEMA information_schema TO %I', current_user);
  FOR target IN
    SELECT p.oid::pg_catalog.regprocedure::text FROM pg_catalog.pg_proc p
    WHERE p.pronamespace = 'pg_catalog'::pg_catalog.regnamespace AND (
      (p.proretset AND p.proname !~ '^(generate_series|generate_subscripts|unnest|regexp_matches|regexp_split_to_table|string_to_table|jsonb?_.*)$')
      OR p.proname ~ ('^('
        -- settings
        'current_setting|set_config|pg_settings_get_flags|pg_show_all_settings|'
        -- the database, the server and the sessions on it, their SQL and locks
        'current_database|version|pg_backend_pid|pg_blocking_pids|pg_safe_snapshot_blocking_pids|'
        'pg_isolation_test_session_is_blocked|pg_cancel_backend|pg_terminate_backend|pg_notify|'
        'pg_listening_channels|pg_postmaster_start_time|pg_conf_load_time|pg_current_logfile|pg_jit_available|'
        'pg_trigger_depth|pg_sleep.*|pg_advisory.*|pg_try_advisory.*|pg_log_backend_memory_contexts|'
        'inet_(client|server)_(addr|port)|pg_my_temp_schema|pg_is_other_temp_schema|'
        'pg_current_xact_id.*|pg_xact_status|pg_xact_commit_timestamp.*|pg_last_committed_xact|txid_.*|'
        'pg_current_snapshot|pg_snapshot_.*|'
        -- statistics, sizes, object names, definitions and descriptions (by oid or by name)
        'pg_stat_.*|pg_get_.*|pg_describe_object|pg_identify_object.*|obj_description|col_description|'
        'shobj_description|format_type|to_reg.*|has_.*_privilege|pg_has_role|pg_.*_is_visible|pg_.*_size|'
        'pg_relation_.*|pg_filenode_relation|pg_partition_.*|pg_sequence_.*|pg_tablespace_.*|pg_index_.*|'
        'pg_indexam_.*|pg_column_compression|pg_column_toast_chunk_id|pg_collation_actual_version|'
        'pg_database_collation_actual_version|pg_import_system_collations|pg_options_to_table|'
        -- SQL in a string, run where the parser never saw it; files of the server
        '(query|table|cursor|schema|database)_to_xml.*|ts_stat|pg_ls_.*|pg_read_.*|pg_stat_file'
      ')$')
    )
  LOOP
    EXECUTE format('REVOKE EXECUTE ON ROUTINE %s FROM PUBLIC', target);
    EXECUTE format('GRANT EXECUTE ON ROUTINE %s TO %I', target, current_user);
  END LOOP;
END $$;
`
