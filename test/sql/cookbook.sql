-- The cookbook's recipes (docs/cookbook.md) at their edges.  The recipes
-- themselves, with their output, are run by test/check_docs.py; here are the
-- claims they rest on that a reader does not see: exact window bounds, every
-- row once through keyset pagination, pruning with now(), an even hash
-- spread, and BRIN indexes that find the same rows as a full scan.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;

-- A time window [ts1, ts2) on the key holds exactly the rows whose time is in it.
CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text);
INSERT INTO orders VALUES
	(gen_ulid('2025-06-09 23:59:59.999+00'), 'last ms before'),
	(ulid_from_time('2025-06-10 00:00+00'), 'first ulid of the window'),
	(gen_ulid('2025-06-10 00:00+00'), 'first ms of the window'),
	(gen_ulid('2025-06-10 23:59:59.999+00'), 'last ms of the window'),
	('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid, 'largest ulid'),
	(ulid_from_time('2025-06-11 00:00+00'), 'first ulid after'),
	(gen_ulid('2025-06-11 00:00+00'), 'first ms after');
SELECT item FROM orders
WHERE id >= '2025-06-10 00:00+00'::timestamptz::ulid
  AND id <  '2025-06-11 00:00+00'::timestamptz::ulid
ORDER BY ulid_time(id), item;
-- The same rows as a filter on ulid_time(), for every row.
SELECT bool_and((id >= '2025-06-10 00:00+00'::timestamptz::ulid
				 AND id < '2025-06-11 00:00+00'::timestamptz::ulid)
				= (ulid_time(id) >= '2025-06-10 00:00+00' AND ulid_time(id) < '2025-06-11 00:00+00'))
	AS window_equals_time_filter
FROM orders;
DELETE FROM orders;

-- Keyset pagination visits every row once, in order, whatever the page size.
INSERT INTO orders (id, item)
SELECT gen_ulid('2025-06-01 00:00+00'::timestamptz + (n / 3) * interval '1 ms'), 'item ' || n
FROM generate_series(1, 10000) n;
CREATE FUNCTION paged(page int) RETURNS TABLE (pages int, rows_seen bigint)
LANGUAGE plpgsql AS $$
DECLARE
	last ulid := '00000000000000000000000000';
	r record;
	n int;
BEGIN
	pages := 0; rows_seen := 0;
	LOOP
		n := 0;
		FOR r IN SELECT id FROM orders WHERE id > last ORDER BY id LIMIT page LOOP
			last := r.id;
			n := n + 1;
		END LOOP;
		EXIT WHEN n = 0;
		pages := pages + 1;
		rows_seen := rows_seen + n;
	END LOOP;
	RETURN NEXT;
END
$$;
SELECT *, rows_seen = (SELECT count(*) FROM orders) AS every_row FROM paged(1000);
SELECT *, rows_seen = (SELECT count(*) FROM orders) AS every_row FROM paged(333);
DROP FUNCTION paged(int);

-- Monthly partitions: a bound from now() prunes when the query starts.
CREATE TABLE events (id ulid NOT NULL DEFAULT gen_ulid(), body text) PARTITION BY RANGE (id);
CREATE TABLE events_2025_06 PARTITION OF events
    FOR VALUES FROM ('2025-06-01 00:00+00'::timestamptz::ulid) TO ('2025-07-01 00:00+00'::timestamptz::ulid);
CREATE TABLE events_2025_07 PARTITION OF events
    FOR VALUES FROM ('2025-07-01 00:00+00'::timestamptz::ulid) TO ('2025-08-01 00:00+00'::timestamptz::ulid);
CREATE TABLE events_default PARTITION OF events DEFAULT;
INSERT INTO events (id, body) VALUES (gen_ulid('2025-06-30 23:59:59.999+00'), 'last ms of June'),
	(ulid_from_time('2025-07-01 00:00+00'), 'first ulid of July');
INSERT INTO events (body) VALUES ('today');
SELECT tableoid::regclass, body FROM events ORDER BY id;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id >= (now() - interval '1 day')::ulid;
SELECT body FROM events WHERE id >= (now() - interval '1 day')::ulid;
-- Detached, a month's rows are gone from the parent and kept in the table.
ALTER TABLE events DETACH PARTITION events_2025_06;
SELECT count(*) AS in_events FROM events WHERE body = 'last ms of June';
SELECT count(*) AS in_detached FROM events_2025_06;

-- Hash partitions: 10,000 ids of one millisecond spread evenly over four
-- partitions (each gets 2,500 +- 50 on average; 2,200 is six deviations away).
CREATE TABLE sessions (id ulid PRIMARY KEY DEFAULT gen_ulid(), data jsonb) PARTITION BY HASH (id);
CREATE TABLE sessions_0 PARTITION OF sessions FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE sessions_1 PARTITION OF sessions FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE sessions_2 PARTITION OF sessions FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE sessions_3 PARTITION OF sessions FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO sessions (id) SELECT gen_ulid('2025-06-01 00:00+00') FROM generate_series(1, 10000);
SELECT count(*) = 4 AS four_partitions, bool_and(n BETWEEN 2200 AND 2800) AS even
FROM (SELECT count(*) AS n FROM sessions GROUP BY tableoid) s;

-- BRIN: each operator class finds the rows a full scan finds, in time order
-- and shuffled (late writers).
CREATE TABLE log (id ulid NOT NULL, line text);
INSERT INTO log SELECT gen_ulid('2025-06-01 00:00+00'::timestamptz + n * interval '10 ms'), 'line ' || n
	FROM generate_series(1, 50000) n;
INSERT INTO log SELECT gen_ulid('2025-06-01 00:00+00'::timestamptz + random() * interval '500 s'), 'late'
	FROM generate_series(1, 500);
CREATE INDEX log_minmax ON log USING brin (id);
CREATE INDEX log_multi ON log USING brin (id ulid_minmax_multi_ops);
CREATE INDEX log_bloom ON log USING brin (id ulid_bloom_ops);
ANALYZE log;
SET enable_bitmapscan = off;
CREATE TEMP TABLE expected AS
	SELECT count(*) AS n FROM log
	WHERE id >= '2025-06-01 00:01+00'::timestamptz::ulid AND id < '2025-06-01 00:02+00'::timestamptz::ulid;
SELECT n >= 6000 AS a_minute_of_rows FROM expected;
SELECT min(id) AS some_id FROM log WHERE line = 'line 4242' \gset
RESET enable_bitmapscan;
SET enable_seqscan = off;
SET enable_indexscan = off;
-- Whether the plan of a query reads the given index.
CREATE FUNCTION plan_uses(query text, index_name text) RETURNS bool
LANGUAGE plpgsql AS $$
DECLARE
	line text;
	found bool := false;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		found := found OR line LIKE '%Index Scan on ' || index_name || '%';
	END LOOP;
	RETURN found;
END
$$;
CREATE TEMP TABLE q AS SELECT format('SELECT count(*) FROM log WHERE id >= %L AND id < %L',
	'2025-06-01 00:01+00'::timestamptz::ulid, '2025-06-01 00:02+00'::timestamptz::ulid) AS range_query,
	format('SELECT line FROM log WHERE id = %L', :'some_id') AS equality_query;
-- Each class alone.
DROP INDEX log_multi;
DROP INDEX log_bloom;
SELECT plan_uses(range_query, 'log_minmax') AS minmax_used FROM q;
SELECT count(*) = (SELECT n FROM expected) AS minmax_range
FROM log WHERE id >= '2025-06-01 00:01+00'::timestamptz::ulid AND id < '2025-06-01 00:02+00'::timestamptz::ulid;
CREATE INDEX log_multi ON log USING brin (id ulid_minmax_multi_ops);
DROP INDEX log_minmax;
SELECT plan_uses(range_query, 'log_multi') AS minmax_multi_used FROM q;
SELECT count(*) = (SELECT n FROM expected) AS minmax_multi_range
FROM log WHERE id >= '2025-06-01 00:01+00'::timestamptz::ulid AND id < '2025-06-01 00:02+00'::timestamptz::ulid;
CREATE INDEX log_bloom ON log USING brin (id ulid_bloom_ops);
DROP INDEX log_multi;
SELECT plan_uses(equality_query, 'log_bloom') AS bloom_used FROM q;
SELECT line AS bloom_equality FROM log WHERE id = :'some_id';
RESET enable_seqscan;
RESET enable_indexscan;
DROP FUNCTION plan_uses(text, text);

DROP TABLE orders, events, events_2025_06, sessions, log;
RESET max_parallel_workers_per_gather;
RESET TimeZone;
