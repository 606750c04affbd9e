/* ulid--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.1'" to load this file. \quit

-- 1.1's install script creates the BRIN minmax-multi and bloom operator
-- classes with plain DDL rather than in a DO block, so that CREATE EXTENSION
-- works in a database without PL/pgSQL.  1.0 created them only on
-- PostgreSQL 14 and later: an installation made on 13 and brought to a
-- supported major by pg_upgrade lacks them, and gets them here.  (1.0 needed
-- PL/pgSQL, so its installations have it.)
DO $$
BEGIN
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
				   JOIN pg_catalog.pg_opclass c ON c.oid OPERATOR(pg_catalog.=) d.objid
				   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opclass'::pg_catalog.regclass
					 AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
					 AND d.refobjid OPERATOR(pg_catalog.=) (SELECT oid FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'ulid')
					 AND c.opcname OPERATOR(pg_catalog.=) 'ulid_minmax_multi_ops') THEN
		CREATE OPERATOR CLASS ulid_minmax_multi_ops
		FOR TYPE ulid USING brin AS
			OPERATOR 1 <,
			OPERATOR 2 <=,
			OPERATOR 3 =,
			OPERATOR 4 >=,
			OPERATOR 5 >,
			FUNCTION 1 pg_catalog.brin_minmax_multi_opcinfo(pg_catalog.internal),
			FUNCTION 2 pg_catalog.brin_minmax_multi_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
			FUNCTION 3 pg_catalog.brin_minmax_multi_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.int4),
			FUNCTION 4 pg_catalog.brin_minmax_multi_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
			FUNCTION 5 pg_catalog.brin_minmax_multi_options(pg_catalog.internal),
			FUNCTION 11 ulid_brin_distance(pg_catalog.internal, pg_catalog.internal),
		STORAGE ulid;

		CREATE OPERATOR CLASS ulid_bloom_ops
		FOR TYPE ulid USING brin AS
			OPERATOR 1 =,
			FUNCTION 1 pg_catalog.brin_bloom_opcinfo(pg_catalog.internal),
			FUNCTION 2 pg_catalog.brin_bloom_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
			FUNCTION 3 pg_catalog.brin_bloom_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.int4),
			FUNCTION 4 pg_catalog.brin_bloom_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
			FUNCTION 5 pg_catalog.brin_bloom_options(pg_catalog.internal),
			FUNCTION 11 ulid_hash(ulid),
		STORAGE ulid;
	END IF;
END
$$;

--
-- Converting uuid columns
--

-- C with SPI: converting runs ALTER TABLE statements built from the catalog,
-- which LANGUAGE sql cannot do, and the install script needs no PL/pgSQL.
CREATE FUNCTION ulid_convert_column(tab pg_catalog.regclass, col pg_catalog.name)
RETURNS TABLE (relation pg_catalog.regclass, old_default pg_catalog.text, new_default pg_catalog.text)
AS 'MODULE_PATHNAME', 'ulid_convert_column'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION ulid_convert_column(pg_catalog.regclass, pg_catalog.name) IS
'convert a uuid column to ulid in place, replacing a default that generates uuids with gen_ulid(); one row per table converted';

-- Warns when CREATE TABLE or ALTER TABLE leaves a ulid column whose default
-- is a uuid generator cast to ulid, as ALTER COLUMN ... TYPE ulid does to
-- DEFAULT gen_random_uuid().  DDL only: nothing runs on INSERT.  Like every
-- event trigger it does not fire under session_replication_role = replica.
CREATE FUNCTION ulid_check_defaults()
RETURNS pg_catalog.event_trigger
AS 'MODULE_PATHNAME', 'ulid_check_defaults'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION ulid_check_defaults() IS
'event trigger function: warns when a ulid column gets a default that generates uuids';

CREATE EVENT TRIGGER ulid_check_defaults ON ddl_command_end
	WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE', 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE')
	EXECUTE FUNCTION ulid_check_defaults();

COMMENT ON EVENT TRIGGER ulid_check_defaults IS
'warns when a ulid column gets a default that generates uuids (see ulid_convert_column())';
