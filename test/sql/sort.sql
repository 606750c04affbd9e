-- Sort support: abbreviated keys, their abort path, and the full comparator
-- all give the order of the bytes.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;

SELECT amproclefttype::regtype, amproc::regproc FROM pg_amproc ap JOIN pg_opfamily f ON f.oid = ap.amprocfamily
WHERE f.opfname = 'ulid_ops' AND ap.amprocnum = 2 ORDER BY amproclefttype::regtype::text;

-- In-memory sorts unless a case says otherwise.
SET work_mem = '64MB';

-- 200,000 ids: many per millisecond (abbreviated keys share the time and
-- differ in 16 random bits), spread over years, and ties in the first 8
-- bytes that only the full comparison can order.
CREATE TABLE sort_ids AS
	SELECT gen_ulid() AS id FROM generate_series(1, 100000)
	UNION ALL
	SELECT gen_ulid('2000-01-01'::timestamptz + random() * interval '30 years')
	FROM generate_series(1, 90000)
	UNION ALL
	SELECT ('\x0123456789abcdef'::bytea || substr(uuid_send(gen_random_uuid()), 1, 8))::ulid
	FROM generate_series(1, 10000);
SELECT count(*), count(DISTINCT id) FROM sort_ids;

-- The expected order, computed without ulid's comparator: bytes as text in "C".
CREATE TABLE sort_expected AS
	SELECT row_number() OVER (ORDER BY encode(id::bytea, 'hex') COLLATE "C") AS pos, id
	FROM sort_ids;

-- First sort key: abbreviated keys in use.
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id) AS pos, id FROM sort_ids) s
JOIN sort_expected e USING (pos) WHERE s.id <> e.id;
-- Descending.
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id DESC) AS pos, id FROM sort_ids) s
JOIN sort_expected e ON e.pos = 200001 - s.pos WHERE s.id <> e.id;
-- A second sort key is never abbreviated: the full comparator alone.
-- (ulid_time(id) first gives the same order, with ties inside a millisecond.)
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY ulid_time(id), id) AS pos, id FROM sort_ids) s
JOIN sort_expected e USING (pos) WHERE s.id <> e.id;
-- Few distinct values among many rows: the abort heuristic gives up on
-- abbreviation part-way through and the sort finishes on full comparisons
-- (t/001_monotonic_cluster.pl sees the trace_sort message that says so).
CREATE TABLE sort_dups AS
	SELECT f.id FROM generate_series(1, 100000) n
	JOIN (SELECT id, pos / 40000 AS k FROM sort_expected WHERE pos % 40000 = 0) f
		ON f.k = 1 + n % 5;
SELECT count(*) AS misplaced FROM (
	SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM sort_dups) s
WHERE prev > id;
SELECT count(*) AS distinct_ids, min(c), max(c)
FROM (SELECT id, count(*) AS c FROM sort_dups GROUP BY id) g;

-- CREATE INDEX sorts with the same support; amcheck verifies the order.
CREATE INDEX sort_ids_idx ON sort_ids (id);
SELECT bt_index_check('sort_ids_idx', true);
CREATE INDEX sort_dups_idx ON sort_dups (id);
SELECT bt_index_check('sort_dups_idx', true);

-- A sort that spills to disk (external merge) keeps the order.
SET work_mem = '1MB';
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id) AS pos, id FROM sort_ids) s
JOIN sort_expected e USING (pos) WHERE s.id <> e.id;
SET work_mem = '64MB';

-- DISTINCT and merge joins go through the same sort.
SET enable_hashagg = off;
SELECT count(*) FROM (SELECT DISTINCT id FROM sort_dups) d;
RESET enable_hashagg;
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT count(*) FROM sort_ids a JOIN sort_expected b USING (id);
RESET enable_hashjoin;
RESET enable_nestloop;

DROP TABLE sort_ids, sort_expected, sort_dups;
RESET work_mem;
