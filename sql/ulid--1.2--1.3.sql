/* ulid--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.3'" to load this file. \quit

-- The two cross-type = operators of ulid and uuid no longer MERGE: a
-- mergejoinable join clause becomes an equivalence class of ulid's btree
-- family alone, and the planner then offers it to no index of core's
-- uuid_ops, so joining a converted key with a uuid column not yet converted
-- lost the index on the uuid side.  ALTER OPERATOR cannot take MERGES back
-- (15 and 16 have no option for it; 17 on refuse to change it once set), so
-- the catalog row is changed, as no command can.  Nothing stored depends on
-- the flag: plans cached with a merge join are planned again on the next
-- invalidation, and a merge join of the two types is planned no more.
UPDATE pg_catalog.pg_operator o SET oprcanmerge = false
FROM pg_catalog.pg_depend d
WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass::pg_catalog.oid
  AND d.objid OPERATOR(pg_catalog.=) o.oid
  AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
  AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char
  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
											 WHERE e.extname OPERATOR(pg_catalog.=) 'ulid'::pg_catalog.name)
  AND o.oprname OPERATOR(pg_catalog.=) '='::pg_catalog.name
  AND 'pg_catalog.uuid'::pg_catalog.regtype::pg_catalog.oid OPERATOR(pg_catalog.=) ANY (ARRAY[o.oprleft, o.oprright]);

-- The event trigger also fires for CREATE SCHEMA, whose CREATE TABLEs it
-- did not see; an event trigger's tags cannot be altered, so it is made
-- again, with its comment.
DROP EVENT TRIGGER ulid_check_defaults;
CREATE EVENT TRIGGER ulid_check_defaults ON ddl_command_end
	WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE', 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'CREATE SCHEMA')
	EXECUTE FUNCTION ulid_check_defaults();
COMMENT ON EVENT TRIGGER ulid_check_defaults IS
'warns when a ulid column gets a default that generates uuids (see ulid_convert_column())';

-- What ulid_convert_column() would do, changing nothing: one row per step,
-- in its order (locks, blockers, conversions, defaults, rebuilds, scans,
-- publications, functions to review).
CREATE FUNCTION ulid_convert_column_dry_run(tab pg_catalog.regclass, col pg_catalog.name)
RETURNS TABLE (step pg_catalog.int4, action pg_catalog.text, object pg_catalog.text, detail pg_catalog.text)
AS 'MODULE_PATHNAME', 'ulid_convert_column_dry_run'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION ulid_convert_column_dry_run(pg_catalog.regclass, pg_catalog.name) IS
'what ulid_convert_column(tab, col) would lock, refuse, convert, rebuild and check again, and the publications and functions to look at, without changing anything';
