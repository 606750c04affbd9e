-- MongoDB ObjectIds: ulid_from_objectid(text), ulid_from_objectid(bytea),
-- ulid_to_objectid(ulid).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET timezone = 'UTC';
\i test/sql/include/outcome.sql

-- The example of MongoDB's documentation: 2012-10-17 21:13:27 UTC.
SELECT ulid_from_objectid('507f1f77bcf86cd799439011') AS example;
SELECT ulid_time(ulid_from_objectid('507f1f77bcf86cd799439011'));
SELECT ulid_from_objectid('507f1f77bcf86cd799439011')::bytea;
SELECT ulid_to_objectid(ulid_from_objectid('507f1f77bcf86cd799439011'));
-- Either case in, lower case out; the 12 bytes as BSON holds them.
SELECT ulid_to_objectid(ulid_from_objectid('507F1F77BCF86CD799439011'));
SELECT ulid_from_objectid('\x507f1f77bcf86cd799439011'::bytea) = ulid_from_objectid('507f1f77bcf86cd799439011') AS bytea_agrees;

-- The extremes: the epoch with zero bytes, the last second with all ones.
SELECT ulid_from_objectid('000000000000000000000000'), ulid_time(ulid_from_objectid('000000000000000000000000'));
SELECT ulid_from_objectid('ffffffffffffffffffffffff'), ulid_time(ulid_from_objectid('ffffffffffffffffffffffff'));
SELECT ulid_to_objectid(ulid_from_objectid('ffffffffffffffffffffffff'));
SELECT ulid_to_objectid('00000000000000000000000000');

-- Bad text: 22P02 with a detail.  Accepted: exactly 24 hexadecimal digits.
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('507f1f77bcf86cd79943901')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('507f1f77bcf86cd7994390111')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('507f1f77bcf86cd79943901g')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('{07f1f77bcf86cd79943901}')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('ObjectId("507f1f77bcf86cd799439011")')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid(' 507f1f77bcf86cd79943901')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('507f1f77bcf86cd79943901é')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('')$$);
-- Bad bytes: 22P03, as the bytea-to-ulid cast.
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('\x507f1f77bcf86cd7994390'::bytea)$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_from_objectid('\x507f1f77bcf86cd79943901100'::bytea)$$);
-- A ulid that is no ObjectId's: 22023, with the first reason.
SELECT * FROM pg_temp.outcome($$SELECT ulid_to_objectid('01ARYZ6S41TSV4RRFFQ69G5FAV')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_to_objectid(ulid_min_at('2012-10-17 21:13:27.5+00'))$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_to_objectid(ulid_min_at('2106-02-07 06:28:16+00'))$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_to_objectid(ulid_from_bytea(overlay(ulid_from_objectid('507f1f77bcf86cd799439011')::bytea placing '\x0001' from 15)))$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_to_objectid(ulid_max_at('2106-02-07 06:28:15+00'))$$);
SELECT ulid_from_objectid(NULL::text) IS NULL AND ulid_from_objectid(NULL::bytea) IS NULL
	AND ulid_to_objectid(NULL) IS NULL AS strict;

-- 50,000 ObjectIds, most in one second: each maps back, none collide, and
-- the ulids sort as the ObjectIds' bytes (and so as their digits) do.
CREATE TEMP TABLE oids AS
SELECT CASE WHEN n % 5 = 0 THEN substr(md5(n::text), 1, 8) ELSE '65a1b2c3' END
	|| substr(md5('x' || n), 1, 16) AS oid
FROM generate_series(1, 50000) n;
SELECT count(*) AS n,
	count(DISTINCT oid) AS distinct_oids,
	count(DISTINCT ulid_from_objectid(oid)) AS distinct_ulids,
	count(*) FILTER (WHERE ulid_to_objectid(ulid_from_objectid(oid)) = oid) AS round_trips,
	count(*) FILTER (WHERE ulid_from_objectid(decode(oid, 'hex')) = ulid_from_objectid(oid)) AS bytes_agree,
	count(*) FILTER (WHERE ulid_time(ulid_from_objectid(oid)) = to_timestamp(('x' || substr(oid, 1, 8))::bit(32)::bigint)) AS times_agree
FROM oids;
SELECT count(*) FILTER (WHERE a.oid_rank <> a.ulid_rank) AS out_of_order
FROM (SELECT row_number() OVER (ORDER BY decode(oid, 'hex')) AS oid_rank,
	row_number() OVER (ORDER BY ulid_from_objectid(oid)) AS ulid_rank
	FROM oids) a;
SELECT count(*) FILTER (WHERE a.oid_rank <> a.ulid_rank) AS out_of_order_in_one_second
FROM (SELECT row_number() OVER (ORDER BY oid COLLATE "C") AS oid_rank,
	row_number() OVER (ORDER BY ulid_from_objectid(oid)) AS ulid_rank
	FROM oids WHERE oid LIKE '65a1b2c3%') a;

-- Declared IMMUTABLE STRICT PARALLEL SAFE.
SELECT p.oid::regprocedure, provolatile, proisstrict, proparallel
FROM pg_proc p WHERE proname IN ('ulid_from_objectid', 'ulid_to_objectid') ORDER BY p.oid::regprocedure::text COLLATE "C";
