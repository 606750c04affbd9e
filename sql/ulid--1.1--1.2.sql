/* ulid--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.2'" to load this file. \quit

-- The comparisons with a time and the containment in a tstzrange compare
-- 48 bits with a timestamptz and can raise no error for any input: LEAKPROOF,
-- so that a row-level security policy keeps "id > now() - interval '1 hour'"
-- an index condition.
ALTER FUNCTION ulid_timestamptz_lt(ulid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION ulid_timestamptz_le(ulid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION ulid_timestamptz_ge(ulid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION ulid_timestamptz_gt(ulid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION timestamptz_ulid_lt(pg_catalog.timestamptz, ulid) LEAKPROOF;
ALTER FUNCTION timestamptz_ulid_le(pg_catalog.timestamptz, ulid) LEAKPROOF;
ALTER FUNCTION timestamptz_ulid_ge(pg_catalog.timestamptz, ulid) LEAKPROOF;
ALTER FUNCTION timestamptz_ulid_gt(pg_catalog.timestamptz, ulid) LEAKPROOF;
ALTER FUNCTION ulid_contained_by_tstzrange(ulid, pg_catalog.tstzrange) LEAKPROOF;
ALTER FUNCTION tstzrange_contains_ulid(pg_catalog.tstzrange, ulid) LEAKPROOF;

-- gen_ulid() steps a counter in the first 8 bytes instead of adding a random
-- increment, and gen_ulid_v7() now ascends within a millisecond as well
-- (the library's change); their descriptions follow.
COMMENT ON FUNCTION gen_ulid() IS
'a new ulid: the current time and cryptographically random bits: 80 in a session''s first id of a millisecond, then the first 16 plus one and 64 fresh, so that its ids of a millisecond ascend';
COMMENT ON FUNCTION gen_ulid(pg_catalog.timestamptz) IS
'a new ulid for the given time (floored to the millisecond) and cryptographically random bits, as gen_ulid() makes them: ascending within a millisecond in one session';
COMMENT ON FUNCTION gen_ulid_v7() IS
'a new ulid that is also a UUIDv7: the current time, the version 7 and variant bits, and cryptographically random bits: 73 in a session''s first id of a millisecond, then rand_a plus one and 62 fresh, so that its ids of a millisecond ascend';
COMMENT ON FUNCTION gen_ulid_v7(pg_catalog.timestamptz) IS
'a new ulid that is also a UUIDv7, for the given time (floored to the millisecond), with cryptographically random bits as gen_ulid_v7() makes them: ascending within a millisecond in one session';
