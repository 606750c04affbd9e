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

-- UUIDv7-shaped generators.  gen_monotonic_ulid_v7() shares
-- ulid_monotonic_scope(), whose comment now names it.
COMMENT ON FUNCTION ulid_monotonic_scope() IS
'cluster when ulid is in shared_preload_libraries (gen_monotonic_ulid() and gen_monotonic_ulid_v7() are monotonic across all sessions), else backend';

-- gen_ulid() and gen_monotonic_ulid() with the RFC 9562 version 7 and
-- variant bits: the value cast to uuid is a valid UUIDv7 whose time is the
-- ulid's; 74 random bits instead of 80.
CREATE FUNCTION gen_ulid_v7()
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_ulid_v7'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid_v7() IS
'a new ulid that is also a UUIDv7: the current time, the version 7 and variant bits, and 74 cryptographically random bits';

CREATE FUNCTION gen_ulid_v7(pg_catalog.timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_ulid_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid_v7(pg_catalog.timestamptz) IS
'a new ulid that is also a UUIDv7, for the given time (floored to the millisecond), with 74 cryptographically random bits';

-- PARALLEL RESTRICTED, as gen_monotonic_ulid(), for the same reason.
CREATE FUNCTION gen_monotonic_ulid_v7()
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_monotonic_ulid_v7'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION gen_monotonic_ulid_v7() IS
'a new ulid that is also a UUIDv7, strictly greater than the previous one gen_monotonic_ulid_v7() generated in its scope (see ulid_monotonic_scope())';
