-- Byte order: a ulid is its 16 bytes big-endian on every machine.  On a
-- little-endian one a comparison that forgot to convert its 64-bit loads
-- fails everywhere; one that converts unconditionally (a byte swap where
-- pg_ntoh64 belongs) is right there and wrong only on a big-endian machine
-- (s390x), where these checks catch it: built so on s390x, 448 of the 1,089
-- pairs below compare wrongly and the sorts misplace 3,200 of 3,300 rows.
-- Every expected value here is the machine-independent one: bytes, and
-- orders taken from memcmp (bytea's).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
\i test/sql/include/plan_has.sql

-- The binary form, the bytea and uuid casts: the same 16 bytes, time first.
SELECT ulid_send('01ARYZ6S41TSV4RRFFQ69G5FAV') = '\x01563df36481d6764c61efb99302bd5b'::bytea AS send,
	'01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::bytea = '\x01563df36481d6764c61efb99302bd5b'::bytea AS to_bytea,
	'\x01563df36481d6764c61efb99302bd5b'::bytea::ulid = '01ARYZ6S41TSV4RRFFQ69G5FAV' AS from_bytea,
	uuid_send('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid) = '\x01563df36481d6764c61efb99302bd5b'::bytea AS to_uuid,
	'01563df3-6481-d676-4c61-efb99302bd5b'::uuid::ulid = '01ARYZ6S41TSV4RRFFQ69G5FAV' AS from_uuid;
-- The time is bytes 0-5 read big-endian, in both directions.
SELECT ulid_time('\x000000000001ffffffffffffffffffff'::bytea::ulid) AS byte_5_is_1ms,
	ulid_time('\x010000000000ffffffffffffffffffff'::bytea::ulid) AS byte_0_is_2_40ms,
	substr(ulid_send(gen_ulid('2016-07-30 22:36:16.385+00')), 1, 6) AS time_bytes;

-- 33 values: zero, and each of the 16 bytes alone set to 0x01 and to 0x80,
-- so that any 64-bit load in the wrong order sorts some pair wrongly.
CREATE TABLE byte_order_v AS
	SELECT overlay('\x00000000000000000000000000000000'::bytea
		PLACING set_byte('\x00'::bytea, 0, b) FROM i + 1)::ulid AS id
	FROM generate_series(0, 15) i, (VALUES (1), (128)) v(b)
	UNION ALL SELECT '00000000000000000000000000';
SELECT count(*), count(DISTINCT id::bytea) FROM byte_order_v;

-- Every operator and ulid_cmp, on every pair, agree with memcmp.
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE (a.id < b.id) <> (a.id::bytea < b.id::bytea)
		OR (a.id <= b.id) <> (a.id::bytea <= b.id::bytea)
		OR (a.id = b.id) <> (a.id::bytea = b.id::bytea)
		OR (a.id <> b.id) <> (a.id::bytea <> b.id::bytea)
		OR (a.id >= b.id) <> (a.id::bytea >= b.id::bytea)
		OR (a.id > b.id) <> (a.id::bytea > b.id::bytea)
		OR sign(ulid_cmp(a.id, b.id)) <> sign(byteacmp(a.id::bytea, b.id::bytea))) AS wrong
FROM byte_order_v a, byte_order_v b;

-- Sorts: 3,300 rows (each value 100 times, in an order unrelated to either),
-- sorted in memory with abbreviated keys (a first sort key), without them
-- (a second key, after one that ties) and on disk: each row's position
-- against memcmp's order.
CREATE TABLE byte_order_t AS
	SELECT id FROM byte_order_v, generate_series(1, 100) n ORDER BY md5(id::text || n);
CREATE TABLE byte_order_expected AS
	SELECT row_number() OVER (ORDER BY id::bytea) AS pos, id FROM byte_order_t;
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id) AS pos, id FROM byte_order_t) s
JOIN byte_order_expected e USING (pos) WHERE s.id <> e.id;
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY length(id::text), id) AS pos, id FROM byte_order_t) s
JOIN byte_order_expected e USING (pos) WHERE s.id <> e.id;
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id DESC) AS pos, id FROM byte_order_t) s
JOIN byte_order_expected e ON e.pos = 3301 - s.pos WHERE s.id <> e.id;
SET work_mem = '64kB';
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id) AS pos, id FROM (SELECT id, repeat('x', 200) AS pad FROM byte_order_t) t) s
JOIN byte_order_expected e USING (pos) WHERE s.id <> e.id;
RESET work_mem;

-- A btree built by a sort and one built by inserts: their order is memcmp's,
-- and each finds every value.
CREATE INDEX byte_order_sorted ON byte_order_t (id);
CREATE TABLE byte_order_i (id ulid PRIMARY KEY);
INSERT INTO byte_order_i SELECT id FROM byte_order_v ORDER BY md5(id::text);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.plan_has('SELECT id FROM byte_order_t ORDER BY id', 'Index Only Scan using byte_order_sorted')
	OR pg_temp.plan_has('SELECT id FROM byte_order_t ORDER BY id', 'Index Scan using byte_order_sorted') AS sorted_index,
	pg_temp.plan_has('SELECT id FROM byte_order_i ORDER BY id', 'using byte_order_i_pkey') AS inserted_index;
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER () AS pos, id FROM (SELECT id FROM byte_order_t ORDER BY id) o) s
JOIN byte_order_expected e USING (pos) WHERE s.id <> e.id;
SELECT array_agg(id::bytea ORDER BY pos) = (SELECT array_agg(id::bytea ORDER BY id::bytea) FROM byte_order_v) AS insert_built_in_order
FROM (SELECT row_number() OVER () AS pos, id FROM (SELECT id FROM byte_order_i ORDER BY id) o) s;
SELECT count(*) AS found FROM byte_order_v v WHERE EXISTS (SELECT FROM byte_order_i i WHERE i.id = v.id);
SELECT count(*) AS found FROM byte_order_v v WHERE (SELECT count(*) FROM byte_order_t t WHERE t.id = v.id) = 100;
RESET enable_seqscan;
RESET enable_bitmapscan;

DROP TABLE byte_order_v, byte_order_t, byte_order_expected, byte_order_i;
RESET TimeZone;
