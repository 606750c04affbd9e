-- PostgreSQL 19's REPACK (which replaces CLUSTER and VACUUM FULL) on ulid
-- tables: USING INDEX writes the heap in ulid order, sorted with ulid's sort
-- support, and every index comes out valid.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;

-- Ids from 30 years in random order, some sharing their first 8 bytes (the
-- abbreviated key), so that the full comparison must order them.
CREATE TABLE repack_t (id ulid NOT NULL, pad text);
INSERT INTO repack_t
	SELECT gen_ulid('2000-01-01'::timestamptz + random() * interval '30 years'), 'x'
	FROM generate_series(1, 30000)
	UNION ALL
	SELECT ('\x0123456789abcdef'::bytea || substr(uuid_send(gen_random_uuid()), 1, 8))::ulid, 'y'
	FROM generate_series(1, 3000);
CREATE INDEX repack_t_btree ON repack_t (id);
CREATE INDEX repack_t_hash ON repack_t USING hash (id);
CREATE TEMP TABLE repack_before AS SELECT id FROM repack_t;
-- Inserted in random order: the heap is not in ulid order yet.
SELECT count(*) > 0 AS heap_out_of_order FROM (
	SELECT id, lag(id) OVER (ORDER BY ctid) AS prev FROM repack_t) s
WHERE prev > id;

REPACK repack_t USING INDEX repack_t_btree;
-- The heap is now in ulid order, with the same rows.
SELECT count(*) AS out_of_order FROM (
	SELECT id, lag(id) OVER (ORDER BY ctid) AS prev FROM repack_t) s
WHERE prev > id;
SELECT count(*) AS rows, count(*) = (SELECT count(*) FROM repack_before) AS same_count,
	NOT EXISTS (SELECT id FROM repack_before EXCEPT ALL SELECT id FROM repack_t) AS same_ids
FROM repack_t;
SELECT bt_index_check('repack_t_btree', true);
-- The index to repack by is remembered, as CLUSTER's was.
SELECT indisclustered FROM pg_index WHERE indexrelid = 'repack_t_btree'::regclass;

-- REPACK without an index (VACUUM FULL's job) keeps the rows and valid indexes.
DELETE FROM repack_t WHERE pad = 'y';
REPACK repack_t;
SELECT count(*) FROM repack_t;
SELECT bt_index_check('repack_t_btree', true);

-- The hash index, rebuilt twice, still finds each id.
DROP INDEX repack_t_btree;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS found_by_hash FROM repack_t b
WHERE (SELECT count(*) FROM repack_t t WHERE t.id = b.id) = 1;
RESET enable_seqscan;
RESET enable_bitmapscan;

DROP TABLE repack_t;
