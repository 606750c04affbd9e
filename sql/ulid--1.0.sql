/* ulid--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION ulid" to load this file. \quit

-- Safe under any search_path: CREATE EXTENSION runs this script with
-- search_path set to the target schema (pg_catalog implicitly first), every
-- built-in is written pg_catalog-qualified, and CREATE without OR REPLACE
-- fails rather than adopt an object someone placed in the schema beforehand.

--
-- Shell type
--

CREATE TYPE ulid;

--
-- I/O functions
--

CREATE FUNCTION ulid_in(pg_catalog.cstring)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_out(ulid)
RETURNS pg_catalog.cstring
AS 'MODULE_PATHNAME', 'ulid_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_recv(pg_catalog.internal)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_recv'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_send(ulid)
RETURNS pg_catalog.bytea
AS 'MODULE_PATHNAME', 'ulid_send'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--
-- The type: 16 bytes by reference, laid out like uuid
--

CREATE TYPE ulid (
	INPUT = ulid_in,
	OUTPUT = ulid_out,
	RECEIVE = ulid_recv,
	SEND = ulid_send,
	INTERNALLENGTH = 16,
	ALIGNMENT = char,
	STORAGE = plain
);

COMMENT ON TYPE ulid IS
'ULID: 48-bit Unix time in milliseconds and 80 random bits, 16 bytes, shown as 26 Crockford Base32 characters';

--
-- Casts
--

-- uuid: the same 16 bytes, so binary-coercible both ways and order-preserving.
CREATE CAST (ulid AS pg_catalog.uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (pg_catalog.uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;

-- bytea: the 16 bytes.
CREATE FUNCTION ulid_from_bytea(pg_catalog.bytea)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_from_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_from_bytea(pg_catalog.bytea) IS
'ulid from its 16 bytes (big-endian); any other length is an error';

CREATE CAST (ulid AS pg_catalog.bytea) WITH FUNCTION ulid_send(ulid);
CREATE CAST (pg_catalog.bytea AS ulid) WITH FUNCTION ulid_from_bytea(pg_catalog.bytea);

-- timestamptz: the embedded time, and the smallest ulid of a millisecond.
CREATE FUNCTION ulid_time(ulid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'ulid_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION ulid_time(ulid) IS
'the creation time embedded in a ulid, to the millisecond';

CREATE FUNCTION ulid_from_time(pg_catalog.timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_from_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_from_time(pg_catalog.timestamptz) IS
'the smallest ulid of the millisecond of a time (random part all zeros), for range predicates';

CREATE CAST (ulid AS pg_catalog.timestamptz) WITH FUNCTION ulid_time(ulid);
CREATE CAST (pg_catalog.timestamptz AS ulid) WITH FUNCTION ulid_from_time(pg_catalog.timestamptz);

--
-- Comparison functions
--

CREATE FUNCTION ulid_lt(ulid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION ulid_le(ulid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION ulid_eq(ulid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION ulid_ne(ulid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION ulid_ge(ulid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION ulid_gt(ulid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION ulid_cmp(ulid, ulid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'ulid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

--
-- Operators
--

CREATE OPERATOR < (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);

CREATE OPERATOR <= (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);

CREATE OPERATOR = (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
	HASHES, MERGES
);

CREATE OPERATOR <> (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);

CREATE OPERATOR >= (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR > (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);

--
-- Support functions
--

CREATE FUNCTION ulid_sortsupport(pg_catalog.internal)
RETURNS pg_catalog.void
AS 'MODULE_PATHNAME', 'ulid_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_hash(ulid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'ulid_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_hash_extended(ulid, pg_catalog.int8)
RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'ulid_hash_extended'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--
-- Operator classes
--

-- ulid_sortsupport: abbreviated keys for sorts and index builds.
-- btequalimage: equal ulids are bytewise equal, so B-tree deduplication is safe.
CREATE OPERATOR CLASS ulid_ops
DEFAULT FOR TYPE ulid USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 ulid_cmp(ulid, ulid),
	FUNCTION 2 ulid_sortsupport(pg_catalog.internal),
	FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);

CREATE OPERATOR CLASS ulid_hash_ops
DEFAULT FOR TYPE ulid USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 ulid_hash(ulid),
	FUNCTION 2 ulid_hash_extended(ulid, pg_catalog.int8);

-- BRIN minmax: one [min, max] summary per block range; the default, and
-- the right choice for ids inserted in time order.
CREATE OPERATOR CLASS ulid_minmax_ops
DEFAULT FOR TYPE ulid USING brin AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
	FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
	FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
	FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
STORAGE ulid;

-- BRIN minmax-multi and bloom exist from PostgreSQL 14 on.
CREATE FUNCTION ulid_brin_distance(pg_catalog.internal, pg_catalog.internal)
RETURNS pg_catalog.float8
AS 'MODULE_PATHNAME', 'ulid_brin_distance'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

DO $$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 140000 THEN
		-- Several [min, max] intervals per block range: tolerates rows that
		-- arrive out of time order (late writers, backfills).
		EXECUTE $sql$
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
		STORAGE ulid
		$sql$;
		-- A bloom filter per block range: equality lookups on ids in any order.
		EXECUTE $sql$
		CREATE OPERATOR CLASS ulid_bloom_ops
		FOR TYPE ulid USING brin AS
			OPERATOR 1 =,
			FUNCTION 1 pg_catalog.brin_bloom_opcinfo(pg_catalog.internal),
			FUNCTION 2 pg_catalog.brin_bloom_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
			FUNCTION 3 pg_catalog.brin_bloom_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.int4),
			FUNCTION 4 pg_catalog.brin_bloom_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
			FUNCTION 5 pg_catalog.brin_bloom_options(pg_catalog.internal),
			FUNCTION 11 ulid_hash(ulid),
		STORAGE ulid
		$sql$;
	END IF;
END
$$;

--
-- Aggregates
--

CREATE FUNCTION ulid_smaller(ulid, ulid)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_larger(ulid, ulid)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS 'the smaller of two ulids';
COMMENT ON FUNCTION ulid_larger(ulid, ulid) IS 'the larger of two ulids';

CREATE AGGREGATE min(ulid) (
	SFUNC = ulid_smaller,
	STYPE = ulid,
	COMBINEFUNC = ulid_smaller,
	SORTOP = <,
	PARALLEL = SAFE
);

CREATE AGGREGATE max(ulid) (
	SFUNC = ulid_larger,
	STYPE = ulid,
	COMBINEFUNC = ulid_larger,
	SORTOP = >,
	PARALLEL = SAFE
);

COMMENT ON AGGREGATE min(ulid) IS 'the smallest (earliest) ulid';
COMMENT ON AGGREGATE max(ulid) IS 'the largest (latest) ulid';

--
-- Generators
--

CREATE FUNCTION gen_ulid()
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_ulid'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid() IS
'a new ulid: the current time and 80 cryptographically random bits';

CREATE FUNCTION gen_ulid(pg_catalog.timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_ulid'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid(pg_catalog.timestamptz) IS
'a new ulid for the given time (floored to the millisecond) and 80 cryptographically random bits';

-- PARALLEL RESTRICTED: without preloading, the last value lives in the
-- backend, and a parallel worker would continue from its own state, not the
-- leader's.  (Preloaded, the state is shared and any process may call it, but
-- the marking must hold in both modes.)
CREATE FUNCTION gen_monotonic_ulid()
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_monotonic_ulid'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION gen_monotonic_ulid() IS
'a new ulid strictly greater than the previous one generated in its scope (see ulid_monotonic_scope())';

CREATE FUNCTION ulid_monotonic_scope()
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'ulid_monotonic_scope'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION ulid_monotonic_scope() IS
'cluster when ulid is in shared_preload_libraries (gen_monotonic_ulid() is monotonic across all sessions), else backend';
