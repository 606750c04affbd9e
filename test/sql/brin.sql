-- BRIN: the three operator classes find the rows a sequential scan finds.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;

SELECT opcname, opcdefault, amvalidate(oid) FROM pg_opclass
WHERE opcintype = 'ulid'::regtype AND opcmethod = (SELECT oid FROM pg_am WHERE amname = 'brin')
ORDER BY opcname;

-- An append-only event table: one row a second for 200,000 seconds, inserted
-- in time order, as gen_ulid() defaults would produce.
CREATE TABLE brin_events (id ulid NOT NULL, payload text);
INSERT INTO brin_events
	SELECT gen_ulid('2025-01-01'::timestamptz + n * interval '1 second'), repeat('x', 100)
	FROM generate_series(1, 200000) n;
ANALYZE brin_events;

-- The rows of one hour, by sequential scan: the reference answer.
CREATE TEMP TABLE brin_expected AS
	SELECT id FROM brin_events
	WHERE ulid_time(id) >= '2025-01-02 00:00' AND ulid_time(id) < '2025-01-02 01:00';
SELECT count(*) FROM brin_expected;

-- The same hour through the id, on a table: how many rows, and whether they
-- are exactly the reference rows.
CREATE FUNCTION pg_temp.hour_rows(tbl regclass, OUT rows bigint, OUT same_rows boolean)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		SELECT count(*), count(*) = (SELECT count(*) FROM brin_expected)
			AND coalesce(bool_and(id IN (SELECT id FROM brin_expected)), true)
		FROM %s
		WHERE id >= '2025-01-02 00:00'::timestamptz::ulid AND id < '2025-01-02 01:00'::timestamptz::ulid
	$q$, tbl) INTO rows, same_rows;
END $$;

-- minmax, the default: chosen without disabling anything, exact result.
CREATE INDEX brin_events_minmax ON brin_events USING brin (id);
EXPLAIN (COSTS OFF) SELECT id FROM brin_events
WHERE id >= '2025-01-02 00:00'::timestamptz::ulid AND id < '2025-01-02 01:00'::timestamptz::ulid;
SELECT * FROM pg_temp.hour_rows('brin_events');
-- A BRIN index is tiny next to a btree on the same column.
CREATE INDEX brin_events_btree ON brin_events (id);
SELECT pg_relation_size('brin_events_minmax') * 50 < pg_relation_size('brin_events_btree') AS brin_under_2pct_of_btree;
DROP INDEX brin_events_btree;
DROP INDEX brin_events_minmax;

-- minmax-multi.
CREATE INDEX brin_events_multi ON brin_events USING brin (id ulid_minmax_multi_ops);
EXPLAIN (COSTS OFF) SELECT id FROM brin_events
WHERE id >= '2025-01-02 00:00'::timestamptz::ulid AND id < '2025-01-02 01:00'::timestamptz::ulid;
SELECT * FROM pg_temp.hour_rows('brin_events');
DROP INDEX brin_events_multi;

-- bloom answers equality.
CREATE INDEX brin_events_bloom ON brin_events USING brin (id ulid_bloom_ops);
CREATE TEMP TABLE brin_probe AS SELECT id FROM brin_events ORDER BY id OFFSET 123456 LIMIT 1;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM brin_events WHERE id = '01JGJF6BS8A3F3W6N5C0DSSC33';
RESET enable_seqscan;
SELECT count(*) FROM brin_events e JOIN brin_probe p USING (id);
SET enable_seqscan = off;
SELECT count(*) FROM brin_events WHERE id = (SELECT id FROM brin_probe);
SELECT count(*) FROM brin_events WHERE id = '00000000000000000000000000';
RESET enable_seqscan;
DROP INDEX brin_events_bloom;

-- Rows inserted in random order: the summaries overlap and prune little, but
-- each opclass, forced into use, still returns exactly the right rows.
CREATE TABLE brin_shuffled AS SELECT * FROM brin_events ORDER BY random();
SET enable_seqscan = off;
CREATE INDEX brin_shuffled_minmax ON brin_shuffled USING brin (id);
EXPLAIN (COSTS OFF) SELECT id FROM brin_shuffled
WHERE id >= '2025-01-02 00:00'::timestamptz::ulid AND id < '2025-01-02 01:00'::timestamptz::ulid;
SELECT * FROM pg_temp.hour_rows('brin_shuffled');
DROP INDEX brin_shuffled_minmax;
CREATE INDEX brin_shuffled_multi ON brin_shuffled USING brin (id ulid_minmax_multi_ops);
EXPLAIN (COSTS OFF) SELECT id FROM brin_shuffled
WHERE id >= '2025-01-02 00:00'::timestamptz::ulid AND id < '2025-01-02 01:00'::timestamptz::ulid;
SELECT * FROM pg_temp.hour_rows('brin_shuffled');
DROP INDEX brin_shuffled_multi;
CREATE INDEX brin_shuffled_bloom ON brin_shuffled USING brin (id ulid_bloom_ops);
EXPLAIN (COSTS OFF) SELECT id FROM brin_shuffled WHERE id = '01JGJF6BS8A3F3W6N5C0DSSC33';
SELECT count(*) AS rows FROM brin_shuffled WHERE id = (SELECT id FROM brin_probe);
DROP INDEX brin_shuffled_bloom;
RESET enable_seqscan;

DROP TABLE brin_events, brin_shuffled;
RESET max_parallel_workers_per_gather;
RESET TimeZone;
