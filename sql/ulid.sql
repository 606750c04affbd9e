/* sql/ulid.sql: the install script of the default version (the Makefile installs it as ulid--$(EXTVERSION).sql) */

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
-- Implicit from ulid, as from int4 to int8: every ulid is a uuid, so a ulid
-- goes wherever a uuid is expected (a foreign key to a uuid key, a uuid
-- function).  Only on assignment back: a uuid is a ulid only if its first 48
-- bits are a time.
CREATE CAST (ulid AS pg_catalog.uuid) WITHOUT FUNCTION AS IMPLICIT;
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

CREATE FUNCTION ulid_min_at(pg_catalog.timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_min_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_min_at(pg_catalog.timestamptz) IS
'the smallest ulid of the millisecond containing a time: an inclusive lower bound';

CREATE FUNCTION ulid_max_at(pg_catalog.timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_max_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_max_at(pg_catalog.timestamptz) IS
'the largest ulid of the millisecond containing a time: an inclusive upper bound';

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

-- The restriction estimator of every ulid comparison (with a ulid, a uuid
-- or a time): it interpolates within the column's histogram by the 128-bit
-- value, and pairs the two ends of a window on one column, which core does
-- only for its own scalarltsel family.  Joins keep core's estimators.
CREATE FUNCTION ulid_ineqsel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)
RETURNS pg_catalog.float8
AS 'MODULE_PATHNAME', 'ulid_ineqsel'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

--
-- Operators
--

CREATE OPERATOR < (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarltjoinsel
);

CREATE OPERATOR <= (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarlejoinsel
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
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR > (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargtjoinsel
);

--
-- Comparison with uuid
--

-- A uuid holds the same 16 bytes and sorts the same way (memcmp order), so
-- the same-type C functions compare a ulid with a uuid.  The operators are
-- members of the ulid btree and hash families below, so an index on a ulid
-- column serves uuid-typed parameters, and ulid and uuid columns join by
-- hash joins and reference each other in foreign keys.  The cross-type =
-- does not MERGE: a mergejoinable join clause becomes an equivalence class
-- of its btree families, ulid's alone, and the planner then offers it to no
-- index of core's uuid_ops (nor asks ulid_uuid_support about one), so the
-- join of a converted key with a uuid column not yet converted would lose
-- the index on the uuid side: a nested loop on it is worth more than merge
-- joins between the two types.

-- Planner support: lets an index on a uuid column serve a comparison with a
-- ulid value (see ulid.c).
CREATE FUNCTION ulid_uuid_support(pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_uuid_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_uuid_lt(ulid, pg_catalog.uuid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION ulid_uuid_le(ulid, pg_catalog.uuid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION ulid_uuid_eq(ulid, pg_catalog.uuid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION ulid_uuid_ne(ulid, pg_catalog.uuid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION ulid_uuid_ge(ulid, pg_catalog.uuid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION ulid_uuid_gt(ulid, pg_catalog.uuid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION ulid_uuid_cmp(ulid, pg_catalog.uuid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'ulid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uuid_ulid_lt(pg_catalog.uuid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION uuid_ulid_le(pg_catalog.uuid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION uuid_ulid_eq(pg_catalog.uuid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION uuid_ulid_ne(pg_catalog.uuid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uuid_ulid_ge(pg_catalog.uuid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION uuid_ulid_gt(pg_catalog.uuid, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT ulid_uuid_support;

CREATE FUNCTION uuid_ulid_cmp(pg_catalog.uuid, ulid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'ulid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR < (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, PROCEDURE = ulid_uuid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarltjoinsel
);

CREATE OPERATOR <= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, PROCEDURE = ulid_uuid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarlejoinsel
);

CREATE OPERATOR = (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, PROCEDURE = ulid_uuid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
	HASHES
);

CREATE OPERATOR <> (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, PROCEDURE = ulid_uuid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);

CREATE OPERATOR >= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, PROCEDURE = ulid_uuid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR > (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, PROCEDURE = ulid_uuid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargtjoinsel
);

CREATE OPERATOR < (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, PROCEDURE = uuid_ulid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarltjoinsel
);

CREATE OPERATOR <= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, PROCEDURE = uuid_ulid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarlejoinsel
);

CREATE OPERATOR = (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, PROCEDURE = uuid_ulid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
	HASHES
);

CREATE OPERATOR <> (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, PROCEDURE = uuid_ulid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);

CREATE OPERATOR >= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, PROCEDURE = uuid_ulid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR > (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, PROCEDURE = uuid_ulid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargtjoinsel
);

--
-- Comparison with a time
--

-- "id < ts" compares the ulid's time (ulid_time(id), a whole millisecond)
-- with the instant ts, exactly as "ulid_time(id) < ts" does, infinities
-- included; so do <=, >= and > and their commutators.  No = operator: a
-- millisecond holds many ulids, and "id = ts" would not be an equality that
-- hashing, merge joins or the btree family could use; ulid_min_at() and
-- ulid_max_at() give a millisecond's range.  The support function turns each
-- comparison into a condition on an index of the ulid column (see ulid.c),
-- through the two bound functions.
CREATE FUNCTION ulid_time_lower_bound(pg_catalog.timestamptz, pg_catalog.bool)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_time_lower_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_time_upper_bound(pg_catalog.timestamptz, pg_catalog.bool)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_time_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_timestamptz_support(pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_timestamptz_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_timestamptz_lt(ulid, pg_catalog.timestamptz)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_timestamptz_lt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_timestamptz_support;

CREATE FUNCTION ulid_timestamptz_le(ulid, pg_catalog.timestamptz)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_timestamptz_le'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_timestamptz_support;

CREATE FUNCTION ulid_timestamptz_ge(ulid, pg_catalog.timestamptz)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_timestamptz_ge'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_timestamptz_support;

CREATE FUNCTION ulid_timestamptz_gt(ulid, pg_catalog.timestamptz)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_timestamptz_gt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_timestamptz_support;

CREATE FUNCTION timestamptz_ulid_lt(pg_catalog.timestamptz, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_ulid_lt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_timestamptz_support;

CREATE FUNCTION timestamptz_ulid_le(pg_catalog.timestamptz, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_ulid_le'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_timestamptz_support;

CREATE FUNCTION timestamptz_ulid_ge(pg_catalog.timestamptz, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_ulid_ge'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_timestamptz_support;

CREATE FUNCTION timestamptz_ulid_gt(pg_catalog.timestamptz, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_ulid_gt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_timestamptz_support;

-- ulid_ineqsel places the time in the column's histogram as the first or
-- last ULID of its millisecond, as the index conditions do.
CREATE OPERATOR < (
	LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, PROCEDURE = ulid_timestamptz_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarltjoinsel
);

CREATE OPERATOR <= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, PROCEDURE = ulid_timestamptz_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarlejoinsel
);

CREATE OPERATOR >= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, PROCEDURE = ulid_timestamptz_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR > (
	LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, PROCEDURE = ulid_timestamptz_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargtjoinsel
);

CREATE OPERATOR < (
	LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, PROCEDURE = timestamptz_ulid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarltjoinsel
);

CREATE OPERATOR <= (
	LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, PROCEDURE = timestamptz_ulid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalarlejoinsel
);

CREATE OPERATOR >= (
	LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, PROCEDURE = timestamptz_ulid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR > (
	LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, PROCEDURE = timestamptz_ulid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = ulid_ineqsel, JOIN = pg_catalog.scalargtjoinsel
);

-- "id <@ r" (and "r @> id"): the ulid's time lies in the tstzrange r, each
-- end inclusive or exclusive as r says, unbounded ends included; an empty
-- range holds none.  The support function turns it into the index conditions
-- "id >= ulid_range_lower_bound(r) AND id <= ulid_range_upper_bound(r)" on
-- a btree or BRIN index of the ulid column; ulid_tstzrange_sel estimates it
-- from the column's statistics (core's rangesel expects a range on both sides).
CREATE FUNCTION ulid_range_lower_bound(pg_catalog.tstzrange)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_range_lower_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_range_upper_bound(pg_catalog.tstzrange)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_range_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_tstzrange_support(pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_tstzrange_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_tstzrange_sel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)
RETURNS pg_catalog.float8
AS 'MODULE_PATHNAME', 'ulid_tstzrange_sel'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_contained_by_tstzrange(ulid, pg_catalog.tstzrange)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_contained_by_tstzrange'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_tstzrange_support;

CREATE FUNCTION tstzrange_contains_ulid(pg_catalog.tstzrange, ulid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'tstzrange_contains_ulid'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT ulid_tstzrange_support;

CREATE OPERATOR <@ (
	LEFTARG = ulid, RIGHTARG = pg_catalog.tstzrange, PROCEDURE = ulid_contained_by_tstzrange,
	COMMUTATOR = @>,
	RESTRICT = ulid_tstzrange_sel, JOIN = pg_catalog.contjoinsel
);

CREATE OPERATOR @> (
	LEFTARG = pg_catalog.tstzrange, RIGHTARG = ulid, PROCEDURE = tstzrange_contains_ulid,
	COMMUTATOR = <@,
	RESTRICT = ulid_tstzrange_sel, JOIN = pg_catalog.contjoinsel
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

-- BRIN minmax-multi: several [min, max] intervals per block range; tolerates
-- rows that arrive out of time order (late writers, backfills).
CREATE FUNCTION ulid_brin_distance(pg_catalog.internal, pg_catalog.internal)
RETURNS pg_catalog.float8
AS 'MODULE_PATHNAME', 'ulid_brin_distance'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

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

-- BRIN bloom: a bloom filter per block range; equality lookups on ids in any order.
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

-- The ulid btree family also holds uuid's own comparison members and the
-- cross-type ones, so that each pair of its types is complete: foreign keys
-- and IN (subquery) between ulid and uuid look up the (uuid, uuid) members
-- in the same family.
ALTER OPERATOR FAMILY ulid_ops USING btree ADD
	OPERATOR 1 < (ulid, pg_catalog.uuid),
	OPERATOR 2 <= (ulid, pg_catalog.uuid),
	OPERATOR 3 = (ulid, pg_catalog.uuid),
	OPERATOR 4 >= (ulid, pg_catalog.uuid),
	OPERATOR 5 > (ulid, pg_catalog.uuid),
	FUNCTION 1 (ulid, pg_catalog.uuid) ulid_uuid_cmp(ulid, pg_catalog.uuid),
	OPERATOR 1 < (pg_catalog.uuid, ulid),
	OPERATOR 2 <= (pg_catalog.uuid, ulid),
	OPERATOR 3 = (pg_catalog.uuid, ulid),
	OPERATOR 4 >= (pg_catalog.uuid, ulid),
	OPERATOR 5 > (pg_catalog.uuid, ulid),
	FUNCTION 1 (pg_catalog.uuid, ulid) uuid_ulid_cmp(pg_catalog.uuid, ulid),
	OPERATOR 1 pg_catalog.< (pg_catalog.uuid, pg_catalog.uuid),
	OPERATOR 2 pg_catalog.<= (pg_catalog.uuid, pg_catalog.uuid),
	OPERATOR 3 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
	OPERATOR 4 pg_catalog.>= (pg_catalog.uuid, pg_catalog.uuid),
	OPERATOR 5 pg_catalog.> (pg_catalog.uuid, pg_catalog.uuid),
	FUNCTION 1 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_cmp(pg_catalog.uuid, pg_catalog.uuid),
	FUNCTION 2 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_sortsupport(pg_catalog.internal);

-- The same for hash joins and hashed IN (subquery): equal values have equal
-- bytes, and uuid's hash functions hash the same bytes the same way.
ALTER OPERATOR FAMILY ulid_hash_ops USING hash ADD
	OPERATOR 1 = (ulid, pg_catalog.uuid),
	OPERATOR 1 = (pg_catalog.uuid, ulid),
	OPERATOR 1 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
	FUNCTION 1 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_hash(pg_catalog.uuid),
	FUNCTION 2 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_hash_extended(pg_catalog.uuid, pg_catalog.int8);

-- BRIN minmax and minmax-multi compare a summary with a uuid bound through
-- the cross-type operators.
ALTER OPERATOR FAMILY ulid_minmax_ops USING brin ADD
	OPERATOR 1 < (ulid, pg_catalog.uuid),
	OPERATOR 2 <= (ulid, pg_catalog.uuid),
	OPERATOR 3 = (ulid, pg_catalog.uuid),
	OPERATOR 4 >= (ulid, pg_catalog.uuid),
	OPERATOR 5 > (ulid, pg_catalog.uuid);

ALTER OPERATOR FAMILY ulid_minmax_multi_ops USING brin ADD
	OPERATOR 1 < (ulid, pg_catalog.uuid),
	OPERATOR 2 <= (ulid, pg_catalog.uuid),
	OPERATOR 3 = (ulid, pg_catalog.uuid),
	OPERATOR 4 >= (ulid, pg_catalog.uuid),
	OPERATOR 5 > (ulid, pg_catalog.uuid);

-- GIN: one key per row, the ulid itself, as btree_gin does for uuid, so that
-- a ulid column can join arrays, jsonb or tsvector in a multi-column GIN
-- index.  The range operators are partial matches.  The (ulid, uuid)
-- operators share the support functions: a uuid query holds the same bytes.
-- The planner turns uuid < id into id > uuid, so those five are enough.
CREATE FUNCTION ulid_gin_extract_value(ulid, pg_catalog.internal, pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_gin_extract_value'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_gin_extract_query(ulid, pg_catalog.internal, pg_catalog.int2, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_gin_extract_query'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_gin_consistent(pg_catalog.internal, pg_catalog.int2, ulid, pg_catalog.int4, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_gin_consistent'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_gin_compare_partial(ulid, ulid, pg_catalog.int2, pg_catalog.internal)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'ulid_gin_compare_partial'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS ulid_gin_ops
DEFAULT FOR TYPE ulid USING gin AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 ulid_cmp(ulid, ulid),
	FUNCTION 2 ulid_gin_extract_value(ulid, pg_catalog.internal, pg_catalog.internal),
	FUNCTION 3 ulid_gin_extract_query(ulid, pg_catalog.internal, pg_catalog.int2, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
	FUNCTION 4 ulid_gin_consistent(pg_catalog.internal, pg_catalog.int2, ulid, pg_catalog.int4, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
	FUNCTION 5 ulid_gin_compare_partial(ulid, ulid, pg_catalog.int2, pg_catalog.internal),
STORAGE ulid;

ALTER OPERATOR FAMILY ulid_gin_ops USING gin ADD
	OPERATOR 1 < (ulid, pg_catalog.uuid),
	OPERATOR 2 <= (ulid, pg_catalog.uuid),
	OPERATOR 3 = (ulid, pg_catalog.uuid),
	OPERATOR 4 >= (ulid, pg_catalog.uuid),
	OPERATOR 5 > (ulid, pg_catalog.uuid);

--
-- GiST
--

-- The key of a GiST entry: the smallest and the largest ulid under it, 32
-- bytes; a leaf holds [v, v].  Internal to ulid_gist_ops: it has no text
-- input, and its output shows the two bounds (pageinspect's
-- gist_page_items() prints keys with it).
CREATE TYPE ulid_gist_key;

CREATE FUNCTION ulid_gist_key_in(pg_catalog.cstring)
RETURNS ulid_gist_key
AS 'MODULE_PATHNAME', 'ulid_gist_key_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_key_in(pg_catalog.cstring) IS 'I/O (refuses every input)';

CREATE FUNCTION ulid_gist_key_out(ulid_gist_key)
RETURNS pg_catalog.cstring
AS 'MODULE_PATHNAME', 'ulid_gist_key_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_key_out(ulid_gist_key) IS 'I/O';

CREATE TYPE ulid_gist_key (
	INPUT = ulid_gist_key_in,
	OUTPUT = ulid_gist_key_out,
	INTERNALLENGTH = 32,
	ALIGNMENT = char,
	STORAGE = plain
);

COMMENT ON TYPE ulid_gist_key IS
'the key of the ulid GiST operator class: the smallest and the largest ulid of an index subtree';

-- Nearest by time: the distance between two ulids is the time between them,
-- in milliseconds (ulids of one millisecond are 0 apart).
CREATE FUNCTION ulid_dist(ulid, ulid)
RETURNS pg_catalog.float8
AS 'MODULE_PATHNAME', 'ulid_dist'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_dist(ulid, ulid) IS 'implementation of <-> operator';

CREATE OPERATOR <-> (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_dist,
	COMMUTATOR = <->
);

COMMENT ON OPERATOR <-> (ulid, ulid) IS 'distance between: milliseconds between the times';

CREATE FUNCTION ulid_gist_consistent(pg_catalog.internal, ulid, pg_catalog.int2, pg_catalog.oid, pg_catalog.internal)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'ulid_gist_consistent'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_consistent(pg_catalog.internal, ulid, pg_catalog.int2, pg_catalog.oid, pg_catalog.internal) IS 'GiST support';

CREATE FUNCTION ulid_gist_union(pg_catalog.internal, pg_catalog.internal)
RETURNS ulid_gist_key
AS 'MODULE_PATHNAME', 'ulid_gist_union'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_union(pg_catalog.internal, pg_catalog.internal) IS 'GiST support';

CREATE FUNCTION ulid_gist_compress(pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_gist_compress'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_compress(pg_catalog.internal) IS 'GiST support';

CREATE FUNCTION ulid_gist_penalty(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_gist_penalty'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_penalty(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal) IS 'GiST support';

CREATE FUNCTION ulid_gist_picksplit(pg_catalog.internal, pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_gist_picksplit'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_picksplit(pg_catalog.internal, pg_catalog.internal) IS 'GiST support';

CREATE FUNCTION ulid_gist_same(ulid_gist_key, ulid_gist_key, pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_gist_same'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_same(ulid_gist_key, ulid_gist_key, pg_catalog.internal) IS 'GiST support';

CREATE FUNCTION ulid_gist_distance(pg_catalog.internal, ulid, pg_catalog.int2, pg_catalog.oid, pg_catalog.internal)
RETURNS pg_catalog.float8
AS 'MODULE_PATHNAME', 'ulid_gist_distance'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_distance(pg_catalog.internal, ulid, pg_catalog.int2, pg_catalog.oid, pg_catalog.internal) IS 'GiST support';

CREATE FUNCTION ulid_gist_fetch(pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'ulid_gist_fetch'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_fetch(pg_catalog.internal) IS 'GiST support';

CREATE FUNCTION ulid_gist_sortsupport(pg_catalog.internal)
RETURNS pg_catalog.void
AS 'MODULE_PATHNAME', 'ulid_gist_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_gist_sortsupport(pg_catalog.internal) IS 'sort support';

-- Strategies 1-5 as in btree, 6 for <> and 15 for <-> (btree_gist's
-- numbers), so that exclusion constraints can combine it with core's range
-- classes and btree_gist's.  No decompress function: a fixed-size key needs
-- none.  fetch gives index-only scans; sortsupport a sorted CREATE INDEX.
CREATE OPERATOR CLASS ulid_gist_ops
DEFAULT FOR TYPE ulid USING gist AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	OPERATOR 6 <>,
	OPERATOR 15 <-> FOR ORDER BY pg_catalog.float_ops,
	FUNCTION 1 ulid_gist_consistent(pg_catalog.internal, ulid, pg_catalog.int2, pg_catalog.oid, pg_catalog.internal),
	FUNCTION 2 ulid_gist_union(pg_catalog.internal, pg_catalog.internal),
	FUNCTION 3 ulid_gist_compress(pg_catalog.internal),
	FUNCTION 5 ulid_gist_penalty(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
	FUNCTION 6 ulid_gist_picksplit(pg_catalog.internal, pg_catalog.internal),
	FUNCTION 7 ulid_gist_same(ulid_gist_key, ulid_gist_key, pg_catalog.internal),
	FUNCTION 8 ulid_gist_distance(pg_catalog.internal, ulid, pg_catalog.int2, pg_catalog.oid, pg_catalog.internal),
	FUNCTION 9 ulid_gist_fetch(pg_catalog.internal),
	FUNCTION 11 ulid_gist_sortsupport(pg_catalog.internal),
STORAGE ulid_gist_key;

-- The comparisons with a uuid, as in the btree, hash, BRIN and GIN
-- families: the consistent function reads the same 16 bytes.
ALTER OPERATOR FAMILY ulid_gist_ops USING gist ADD
	OPERATOR 1 < (ulid, pg_catalog.uuid),
	OPERATOR 2 <= (ulid, pg_catalog.uuid),
	OPERATOR 3 = (ulid, pg_catalog.uuid),
	OPERATOR 4 >= (ulid, pg_catalog.uuid),
	OPERATOR 5 > (ulid, pg_catalog.uuid),
	OPERATOR 6 <> (ulid, pg_catalog.uuid);

COMMENT ON OPERATOR CLASS ulid_gist_ops USING gist IS 'default GiST operator class for ulid: comparisons, exclusion constraints, nearest by time';
COMMENT ON OPERATOR FAMILY ulid_gist_ops USING gist IS 'GiST operator family for ulid';

--
-- Range type
--

-- ulidrange: spans of ids with bounds exact to the id, where a tstzrange over
-- ulid_time() can only split between milliseconds.  Continuous, as tstzrange
-- and numrange: no canonical function.  A ulid has a successor, but the ids
-- one bounds by are ids that exist (a keyset, a watermark) or the
-- ulid_min_at()/ulid_max_at() of a time, and '[' and ']' say exactly what
-- they mean; a canonical form would only make [a, b] equal [a, b + 1), at
-- the cost of a call on every range built.  The subtype_diff gives GiST its
-- penalties and the planner its range selectivity.
CREATE FUNCTION ulidrange_subdiff(ulid, ulid)
RETURNS pg_catalog.float8
AS 'MODULE_PATHNAME', 'ulidrange_subdiff'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulidrange_subdiff(ulid, ulid) IS
'float8 difference of two ulid values (the first minus the second, as 128-bit numbers), the subtype_diff of ulidrange';

CREATE TYPE ulidrange AS RANGE (
	SUBTYPE = ulid,
	SUBTYPE_OPCLASS = ulid_ops,
	SUBTYPE_DIFF = ulidrange_subdiff,
	MULTIRANGE_TYPE_NAME = ulidmultirange
);

COMMENT ON TYPE ulidrange IS
'range of ulids, bounds exact to the id';
COMMENT ON TYPE ulidmultirange IS
'multirange of ulids';
COMMENT ON FUNCTION ulidrange(ulid, ulid) IS 'ulidrange constructor';
COMMENT ON FUNCTION ulidrange(ulid, ulid, pg_catalog.text) IS 'ulidrange constructor';
COMMENT ON FUNCTION ulidmultirange() IS 'ulidmultirange constructor';
COMMENT ON FUNCTION ulidmultirange(ulidrange) IS 'ulidmultirange constructor';
COMMENT ON FUNCTION ulidmultirange(ulidrange[]) IS 'ulidmultirange constructor';
COMMENT ON CAST (ulidrange AS ulidmultirange) IS 'the multirange of the one range';

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
'a new ulid: the current time and cryptographically random bits: 80 in a session''s first id of a millisecond, then the first 16 plus one and 64 fresh, so that its ids of a millisecond ascend';

CREATE FUNCTION gen_ulid(pg_catalog.timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_ulid'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid(pg_catalog.timestamptz) IS
'a new ulid for the given time (floored to the millisecond) and cryptographically random bits, as gen_ulid() makes them: ascending within a millisecond in one session';

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
'cluster when ulid is in shared_preload_libraries (gen_monotonic_ulid() and gen_monotonic_ulid_v7() are monotonic across all sessions), else backend';

-- gen_ulid() and gen_monotonic_ulid() with the RFC 9562 version 7 and
-- variant bits: the value cast to uuid is a valid UUIDv7 whose time is the
-- ulid's; 74 random bits instead of 80.
CREATE FUNCTION gen_ulid_v7()
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_ulid_v7'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid_v7() IS
'a new ulid that is also a UUIDv7: the current time, the version 7 and variant bits, and cryptographically random bits: 73 in a session''s first id of a millisecond, then rand_a plus one and 62 fresh, so that its ids of a millisecond ascend';

CREATE FUNCTION gen_ulid_v7(pg_catalog.timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_ulid_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid_v7(pg_catalog.timestamptz) IS
'a new ulid that is also a UUIDv7, for the given time (floored to the millisecond), with cryptographically random bits as gen_ulid_v7() makes them: ascending within a millisecond in one session';

-- PARALLEL RESTRICTED, as gen_monotonic_ulid(), for the same reason.
CREATE FUNCTION gen_monotonic_ulid_v7()
RETURNS ulid
AS 'MODULE_PATHNAME', 'gen_monotonic_ulid_v7'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION gen_monotonic_ulid_v7() IS
'a new ulid that is also a UUIDv7, strictly greater than the previous one gen_monotonic_ulid_v7() generated in its scope (see ulid_monotonic_scope())';

--
-- Public ids: a ulid enciphered as one AES-128 block under a 16-byte key,
-- the caller's or the server's
--

-- IMMUTABLE, so that "id = ulid_decrypt($1, $2)" is computed once and looks
-- the key up in the index; not LEAKPROOF, as a key of the wrong length is
-- an error.
CREATE FUNCTION ulid_encrypt(id ulid, key pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'ulid_encrypt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_encrypt(ulid, pg_catalog.bytea) IS
'the public id of a ulid: its 16 bytes enciphered as one AES-128 block under a 16-byte key, as a uuid that tells nothing of the time';

CREATE FUNCTION ulid_decrypt(public_id pg_catalog.uuid, key pg_catalog.bytea)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_decrypt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_decrypt(pg_catalog.uuid, pg_catalog.bytea) IS
'the ulid of a public id made by ulid_encrypt with the same key';

-- The same under the server's keys (ulid.public_id_key_file), so that the
-- key is in no statement, plan or log.  STABLE, not IMMUTABLE: the result
-- depends on a setting, and a STABLE call is never folded to a constant at
-- plan time, so "id = ulid_decrypt($1)" puts no ulid into a logged plan
-- while it is still computed once and looked up in the index, in generic
-- plans too.  PARALLEL RESTRICTED: each process reads the key file itself,
-- and a worker started after the file was replaced would read the new keys
-- where its leader keeps the ones its transaction began with.
CREATE FUNCTION ulid_encrypt(id ulid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'ulid_encrypt_server_key'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ulid_encrypt(ulid) IS
'the public id of a ulid under the server''s current key (ulid.public_id_key_file), as a uuid that tells nothing of the time';

CREATE FUNCTION ulid_decrypt(public_id pg_catalog.uuid)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_decrypt_server_key'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ulid_decrypt(pg_catalog.uuid) IS
'the ulid of a public id made by ulid_encrypt(id) under the server''s current key';

CREATE FUNCTION ulid_decrypt_all(public_id pg_catalog.uuid)
RETURNS ulid[]
AS 'MODULE_PATHNAME', 'ulid_decrypt_all'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ulid_decrypt_all(pg_catalog.uuid) IS
'the ulids of a public id under each of the server''s keys, the current key first: id = ANY (ulid_decrypt_all(p)) finds a row during a key rotation';

--
-- MongoDB ObjectIds: the time in seconds becomes milliseconds, the other 8
-- bytes follow, then two zero bytes; byte order is kept
--

CREATE FUNCTION ulid_from_objectid(pg_catalog.text)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_from_objectid_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_from_objectid(pg_catalog.text) IS
'the ulid of a MongoDB ObjectId given as its 24 hexadecimal digits: its seconds as milliseconds, its last 8 bytes, two zero bytes';

CREATE FUNCTION ulid_from_objectid(pg_catalog.bytea)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_from_objectid_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_from_objectid(pg_catalog.bytea) IS
'the ulid of a MongoDB ObjectId given as its 12 bytes';

CREATE FUNCTION ulid_to_objectid(ulid)
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'ulid_to_objectid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_to_objectid(ulid) IS
'the 24 hexadecimal digits of the MongoDB ObjectId a ulid was made from by ulid_from_objectid';

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

-- What ulid_convert_column() would do, changing nothing: one row per step,
-- in its order (locks, blockers, conversions, defaults, rebuilds, scans,
-- publications, functions to review).
CREATE FUNCTION ulid_convert_column_dry_run(tab pg_catalog.regclass, col pg_catalog.name)
RETURNS TABLE (step pg_catalog.int4, action pg_catalog.text, object pg_catalog.text, detail pg_catalog.text)
AS 'MODULE_PATHNAME', 'ulid_convert_column_dry_run'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION ulid_convert_column_dry_run(pg_catalog.regclass, pg_catalog.name) IS
'what ulid_convert_column(tab, col) would lock, refuse, convert, rebuild and check again, and the publications and functions to look at, without changing anything';

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
	WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE', 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'CREATE SCHEMA')
	EXECUTE FUNCTION ulid_check_defaults();

COMMENT ON EVENT TRIGGER ulid_check_defaults IS
'warns when a ulid column gets a default that generates uuids (see ulid_convert_column())';

--
-- Descriptions (shown by \df+, \do+, \dT+, \dC+ and \dAc+)
--

COMMENT ON FUNCTION ulid_in(pg_catalog.cstring) IS 'I/O';
COMMENT ON FUNCTION ulid_out(ulid) IS 'I/O';
COMMENT ON FUNCTION ulid_recv(pg_catalog.internal) IS 'I/O';
COMMENT ON FUNCTION ulid_send(ulid) IS 'I/O';
COMMENT ON CAST (ulid AS pg_catalog.uuid) IS 'the same 16 bytes; implicit: a ulid is a uuid';
COMMENT ON CAST (pg_catalog.uuid AS ulid) IS 'the same 16 bytes; on assignment: a uuid is a ulid only if its first 48 bits are a time';
COMMENT ON CAST (ulid AS pg_catalog.bytea) IS 'the 16 bytes, big-endian';
COMMENT ON CAST (pg_catalog.bytea AS ulid) IS 'from 16 bytes, big-endian';
COMMENT ON CAST (ulid AS pg_catalog.timestamptz) IS 'the embedded time (ulid_time)';
COMMENT ON CAST (pg_catalog.timestamptz AS ulid) IS 'the smallest ulid of the millisecond (ulid_min_at)';
COMMENT ON FUNCTION ulid_lt(ulid, ulid) IS 'implementation of < operator';
COMMENT ON FUNCTION ulid_le(ulid, ulid) IS 'implementation of <= operator';
COMMENT ON FUNCTION ulid_eq(ulid, ulid) IS 'implementation of = operator';
COMMENT ON FUNCTION ulid_ne(ulid, ulid) IS 'implementation of <> operator';
COMMENT ON FUNCTION ulid_ge(ulid, ulid) IS 'implementation of >= operator';
COMMENT ON FUNCTION ulid_gt(ulid, ulid) IS 'implementation of > operator';
COMMENT ON FUNCTION ulid_cmp(ulid, ulid) IS 'less-equal-greater';
COMMENT ON OPERATOR < (ulid, ulid) IS 'less than';
COMMENT ON OPERATOR <= (ulid, ulid) IS 'less than or equal';
COMMENT ON OPERATOR = (ulid, ulid) IS 'equal';
COMMENT ON OPERATOR <> (ulid, ulid) IS 'not equal';
COMMENT ON OPERATOR >= (ulid, ulid) IS 'greater than or equal';
COMMENT ON OPERATOR > (ulid, ulid) IS 'greater than';
COMMENT ON FUNCTION ulid_uuid_lt(ulid, pg_catalog.uuid) IS 'implementation of < operator';
COMMENT ON FUNCTION ulid_uuid_le(ulid, pg_catalog.uuid) IS 'implementation of <= operator';
COMMENT ON FUNCTION ulid_uuid_eq(ulid, pg_catalog.uuid) IS 'implementation of = operator';
COMMENT ON FUNCTION ulid_uuid_ne(ulid, pg_catalog.uuid) IS 'implementation of <> operator';
COMMENT ON FUNCTION ulid_uuid_ge(ulid, pg_catalog.uuid) IS 'implementation of >= operator';
COMMENT ON FUNCTION ulid_uuid_gt(ulid, pg_catalog.uuid) IS 'implementation of > operator';
COMMENT ON FUNCTION ulid_uuid_cmp(ulid, pg_catalog.uuid) IS 'less-equal-greater';
COMMENT ON OPERATOR < (ulid, pg_catalog.uuid) IS 'less than';
COMMENT ON OPERATOR <= (ulid, pg_catalog.uuid) IS 'less than or equal';
COMMENT ON OPERATOR = (ulid, pg_catalog.uuid) IS 'equal';
COMMENT ON OPERATOR <> (ulid, pg_catalog.uuid) IS 'not equal';
COMMENT ON OPERATOR >= (ulid, pg_catalog.uuid) IS 'greater than or equal';
COMMENT ON OPERATOR > (ulid, pg_catalog.uuid) IS 'greater than';
COMMENT ON FUNCTION uuid_ulid_lt(pg_catalog.uuid, ulid) IS 'implementation of < operator';
COMMENT ON FUNCTION uuid_ulid_le(pg_catalog.uuid, ulid) IS 'implementation of <= operator';
COMMENT ON FUNCTION uuid_ulid_eq(pg_catalog.uuid, ulid) IS 'implementation of = operator';
COMMENT ON FUNCTION uuid_ulid_ne(pg_catalog.uuid, ulid) IS 'implementation of <> operator';
COMMENT ON FUNCTION uuid_ulid_ge(pg_catalog.uuid, ulid) IS 'implementation of >= operator';
COMMENT ON FUNCTION uuid_ulid_gt(pg_catalog.uuid, ulid) IS 'implementation of > operator';
COMMENT ON FUNCTION uuid_ulid_cmp(pg_catalog.uuid, ulid) IS 'less-equal-greater';
COMMENT ON OPERATOR < (pg_catalog.uuid, ulid) IS 'less than';
COMMENT ON OPERATOR <= (pg_catalog.uuid, ulid) IS 'less than or equal';
COMMENT ON OPERATOR = (pg_catalog.uuid, ulid) IS 'equal';
COMMENT ON OPERATOR <> (pg_catalog.uuid, ulid) IS 'not equal';
COMMENT ON OPERATOR >= (pg_catalog.uuid, ulid) IS 'greater than or equal';
COMMENT ON OPERATOR > (pg_catalog.uuid, ulid) IS 'greater than';
COMMENT ON FUNCTION ulid_uuid_support(pg_catalog.internal) IS 'planner support for ulid-uuid comparisons on a uuid index';
COMMENT ON FUNCTION ulid_time_lower_bound(pg_catalog.timestamptz, pg_catalog.bool) IS
'the smallest ulid whose time is at or after (true) or after (false) the given time; NULL if none';
COMMENT ON FUNCTION ulid_time_upper_bound(pg_catalog.timestamptz, pg_catalog.bool) IS
'the largest ulid whose time is at or before (true) or before (false) the given time; NULL if none';
COMMENT ON FUNCTION ulid_timestamptz_support(pg_catalog.internal) IS 'planner support for ulid-timestamptz comparisons on a ulid index';
COMMENT ON FUNCTION ulid_timestamptz_lt(ulid, pg_catalog.timestamptz) IS 'implementation of < operator';
COMMENT ON FUNCTION ulid_timestamptz_le(ulid, pg_catalog.timestamptz) IS 'implementation of <= operator';
COMMENT ON FUNCTION ulid_timestamptz_ge(ulid, pg_catalog.timestamptz) IS 'implementation of >= operator';
COMMENT ON FUNCTION ulid_timestamptz_gt(ulid, pg_catalog.timestamptz) IS 'implementation of > operator';
COMMENT ON FUNCTION timestamptz_ulid_lt(pg_catalog.timestamptz, ulid) IS 'implementation of < operator';
COMMENT ON FUNCTION timestamptz_ulid_le(pg_catalog.timestamptz, ulid) IS 'implementation of <= operator';
COMMENT ON FUNCTION timestamptz_ulid_ge(pg_catalog.timestamptz, ulid) IS 'implementation of >= operator';
COMMENT ON FUNCTION timestamptz_ulid_gt(pg_catalog.timestamptz, ulid) IS 'implementation of > operator';
COMMENT ON OPERATOR < (ulid, pg_catalog.timestamptz) IS 'ulid''s time less than';
COMMENT ON OPERATOR <= (ulid, pg_catalog.timestamptz) IS 'ulid''s time less than or equal';
COMMENT ON OPERATOR >= (ulid, pg_catalog.timestamptz) IS 'ulid''s time greater than or equal';
COMMENT ON OPERATOR > (ulid, pg_catalog.timestamptz) IS 'ulid''s time greater than';
COMMENT ON OPERATOR < (pg_catalog.timestamptz, ulid) IS 'less than ulid''s time';
COMMENT ON OPERATOR <= (pg_catalog.timestamptz, ulid) IS 'less than or equal to ulid''s time';
COMMENT ON OPERATOR >= (pg_catalog.timestamptz, ulid) IS 'greater than or equal to ulid''s time';
COMMENT ON OPERATOR > (pg_catalog.timestamptz, ulid) IS 'greater than ulid''s time';
COMMENT ON FUNCTION ulid_range_lower_bound(pg_catalog.tstzrange) IS
'the smallest ulid whose time lies in the range (the zero ulid if unbounded below); NULL if none';
COMMENT ON FUNCTION ulid_range_upper_bound(pg_catalog.tstzrange) IS
'the largest ulid whose time lies in the range (the largest ulid if unbounded above); NULL if none';
COMMENT ON FUNCTION ulid_tstzrange_support(pg_catalog.internal) IS 'planner support for ulid-tstzrange containment on a ulid index';
COMMENT ON FUNCTION ulid_ineqsel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4) IS 'restriction selectivity of ulid comparisons';
COMMENT ON FUNCTION ulid_tstzrange_sel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4) IS 'restriction selectivity of ulid-tstzrange containment';
COMMENT ON FUNCTION ulid_contained_by_tstzrange(ulid, pg_catalog.tstzrange) IS 'implementation of <@ operator';
COMMENT ON FUNCTION tstzrange_contains_ulid(pg_catalog.tstzrange, ulid) IS 'implementation of @> operator';
COMMENT ON OPERATOR <@ (ulid, pg_catalog.tstzrange) IS 'ulid''s time is contained by';
COMMENT ON OPERATOR @> (pg_catalog.tstzrange, ulid) IS 'contains ulid''s time';
COMMENT ON FUNCTION ulid_sortsupport(pg_catalog.internal) IS 'sort support';
COMMENT ON FUNCTION ulid_hash(ulid) IS 'hash';
COMMENT ON FUNCTION ulid_hash_extended(ulid, pg_catalog.int8) IS 'hash';
COMMENT ON FUNCTION ulid_brin_distance(pg_catalog.internal, pg_catalog.internal) IS 'BRIN minmax-multi distance';
COMMENT ON OPERATOR CLASS ulid_ops USING btree IS 'default B-tree operator class for ulid; its family also compares ulid with uuid';
COMMENT ON OPERATOR FAMILY ulid_ops USING btree IS 'B-tree operator family of ulid and uuid: both types and the comparisons between them';
COMMENT ON OPERATOR CLASS ulid_hash_ops USING hash IS 'default hash operator class for ulid; its family also compares ulid with uuid';
COMMENT ON OPERATOR FAMILY ulid_hash_ops USING hash IS 'hash operator family of ulid and uuid: both types and the equality between them';
COMMENT ON OPERATOR CLASS ulid_minmax_ops USING brin IS 'default BRIN operator class for ulid: one [min, max] per block range';
COMMENT ON OPERATOR FAMILY ulid_minmax_ops USING brin IS 'BRIN minmax operator family for ulid, with uuid bounds';
COMMENT ON OPERATOR CLASS ulid_minmax_multi_ops USING brin IS 'BRIN operator class for ulid: several [min, max] intervals per block range, for rows out of time order';
COMMENT ON OPERATOR FAMILY ulid_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator family for ulid, with uuid bounds';
COMMENT ON OPERATOR CLASS ulid_bloom_ops USING brin IS 'BRIN operator class for ulid: a bloom filter per block range, for equality';
COMMENT ON OPERATOR FAMILY ulid_bloom_ops USING brin IS 'BRIN bloom operator family for ulid';
COMMENT ON FUNCTION ulid_gin_extract_value(ulid, pg_catalog.internal, pg_catalog.internal) IS 'GIN support';
COMMENT ON FUNCTION ulid_gin_extract_query(ulid, pg_catalog.internal, pg_catalog.int2, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal) IS 'GIN support';
COMMENT ON FUNCTION ulid_gin_consistent(pg_catalog.internal, pg_catalog.int2, ulid, pg_catalog.int4, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal) IS 'GIN support';
COMMENT ON FUNCTION ulid_gin_compare_partial(ulid, ulid, pg_catalog.int2, pg_catalog.internal) IS 'GIN support';
COMMENT ON OPERATOR CLASS ulid_gin_ops USING gin IS 'default GIN operator class for ulid: the value as its key, for multi-column GIN indexes';
COMMENT ON OPERATOR FAMILY ulid_gin_ops USING gin IS 'GIN operator family for ulid, with uuid bounds';
