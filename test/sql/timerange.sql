-- Time-range queries on the id itself: btree ranges, ulid_time() in
-- expression indexes and generated columns, range and hash partitioning.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;
\i test/sql/include/plan_has.sql

-- 50,000 ids over the last 4 days.  Autovacuum stays off the table: a
-- vacuum that sets its visibility map, as it may on a slow server (under
-- Valgrind), turns the plans below into index-only scans.
CREATE TABLE tr_orders (id ulid PRIMARY KEY, note text) WITH (autovacuum_enabled = off);
INSERT INTO tr_orders
	SELECT gen_ulid(now() - random() * interval '4 days'), 'n' || n
	FROM generate_series(1, 50000) n;
ANALYZE tr_orders;

-- Half-open ranges built from timestamps use the btree, both bounds in
-- its condition (whichever scan of it the visibility map and the costs of
-- the day make: not asserted)...
SELECT pg_temp.plan_has($$SELECT id FROM tr_orders
	WHERE id >= '2025-03-01 00:00'::timestamptz::ulid AND id < '2025-03-01 00:10'::timestamptz::ulid$$,
		'tr_orders_pkey') AS uses_pkey,
	pg_temp.plan_has($$SELECT id FROM tr_orders
	WHERE id >= '2025-03-01 00:00'::timestamptz::ulid AND id < '2025-03-01 00:10'::timestamptz::ulid$$,
		'Index Cond: ((id >= ''01JN7G1C000000000000000000''::ulid) AND (id < ''01JN7GKNY00000000000000000''::ulid))')
		AS both_bounds;
-- ...and select exactly the rows whose time is in [ts1, ts2), for
-- millisecond-aligned bounds: compared with a filter on ulid_time().
CREATE FUNCTION pg_temp.window_matches(ts1 timestamptz, ts2 timestamptz) RETURNS boolean
LANGUAGE sql AS $$
	SELECT (SELECT array_agg(id ORDER BY id) FROM tr_orders
			WHERE id >= ts1::ulid AND id < ts2::ulid)
		IS NOT DISTINCT FROM
		(SELECT array_agg(id ORDER BY id) FROM tr_orders
		 WHERE ulid_time(id) >= ts1 AND ulid_time(id) < ts2)
$$;
SELECT pg_temp.window_matches(date_trunc('milliseconds', now() - interval '1 day'), date_trunc('milliseconds', now()));
SELECT pg_temp.window_matches(date_trunc('hour', now() - interval '2 days'), date_trunc('hour', now() - interval '1 day'));
SELECT pg_temp.window_matches(date_trunc('milliseconds', now() - interval '3 days 0.123 s'), date_trunc('milliseconds', now() - interval '2 days 0.456 s'));
SELECT count(*) FILTER (WHERE NOT pg_temp.window_matches(t, t + interval '7 minutes')) AS mismatched_windows
FROM generate_series(date_trunc('minute', now() - interval '4 days'), now(), interval '7 minutes') t;
-- The same with now(): the last day, through the index.  (The cast floors
-- to the millisecond, so the bound is compared floored on both sides.)
SELECT pg_temp.plan_has($$SELECT count(*) FROM tr_orders WHERE id >= (now() - interval '1 day')::ulid$$,
		'tr_orders_pkey') AS uses_pkey,
	pg_temp.plan_has($$SELECT count(*) FROM tr_orders WHERE id >= (now() - interval '1 day')::ulid$$,
		'Index Cond: (id >= ((now() - ''@ 1 day''::interval))::ulid)') AS bound;
SELECT count(*) = (SELECT count(*) FROM tr_orders
				   WHERE ulid_time(id) >= date_trunc('milliseconds', now() - interval '1 day'))
FROM tr_orders WHERE id >= (now() - interval '1 day')::ulid;

-- ulid_time() is IMMUTABLE: usable in an expression index...
CREATE INDEX tr_orders_time ON tr_orders ((ulid_time(id)));
SET enable_seqscan = off;
SELECT pg_temp.plan_has($$SELECT count(*) FROM tr_orders WHERE ulid_time(id) >= '2025-03-01'$$,
		'tr_orders_time') AS uses_expression_index;
RESET enable_seqscan;
DROP INDEX tr_orders_time;
-- ...and in a stored generated column.
CREATE TABLE tr_generated (
	id ulid PRIMARY KEY DEFAULT gen_ulid(),
	created timestamptz GENERATED ALWAYS AS (ulid_time(id)) STORED
);
INSERT INTO tr_generated VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV');
INSERT INTO tr_generated DEFAULT VALUES;
SELECT created FROM tr_generated WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV';
SELECT bool_and(created = ulid_time(id)) FROM tr_generated;

-- Range partitions by month, bounds written from timestamps.
CREATE TABLE tr_events (id ulid NOT NULL DEFAULT gen_ulid(), payload text) PARTITION BY RANGE (id);
CREATE TABLE tr_events_old PARTITION OF tr_events
	FOR VALUES FROM (MINVALUE) TO ('2025-01-01'::timestamptz::ulid);
CREATE TABLE tr_events_2025_01 PARTITION OF tr_events
	FOR VALUES FROM ('2025-01-01'::timestamptz::ulid) TO ('2025-02-01'::timestamptz::ulid);
CREATE TABLE tr_events_2025_02 PARTITION OF tr_events
	FOR VALUES FROM ('2025-02-01'::timestamptz::ulid) TO ('2025-03-01'::timestamptz::ulid);
CREATE TABLE tr_events_later PARTITION OF tr_events
	FOR VALUES FROM ('2025-03-01'::timestamptz::ulid) TO (MAXVALUE);
-- Rows go to the partition of their month: by gen_ulid(ts) and by the default.
INSERT INTO tr_events (id, payload) VALUES
	(gen_ulid('2024-12-31 23:59:59.999'), 'last ms of 2024'),
	(gen_ulid('2025-01-01 00:00:00'), 'first ms of January'),
	(gen_ulid('2025-01-31 23:59:59.999'), 'last ms of January'),
	(gen_ulid('2025-02-14 12:00'), 'February');
INSERT INTO tr_events (payload) VALUES ('now, by default');
SELECT tableoid::regclass AS partition, payload FROM tr_events ORDER BY id;
-- Plan-time pruning for constants: only January is scanned.
EXPLAIN (COSTS OFF) SELECT * FROM tr_events
WHERE id >= '2025-01-10'::timestamptz::ulid AND id < '2025-01-20'::timestamptz::ulid;
-- Run-time pruning for now(): the older partitions are removed at startup.
EXPLAIN (COSTS OFF) SELECT * FROM tr_events WHERE id >= (now() - interval '1 day')::ulid;
SELECT payload FROM tr_events WHERE id >= (now() - interval '1 day')::ulid;

-- Hash partitions on the id: rows spread over all four, a lookup by id
-- prunes to one, the one the id's hash names (which one that is differs by
-- byte order, as core's hashes of bytes do), through its primary key.
CREATE TABLE tr_hashed (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int) PARTITION BY HASH (id);
CREATE TABLE tr_hashed_0 PARTITION OF tr_hashed FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE tr_hashed_1 PARTITION OF tr_hashed FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE tr_hashed_2 PARTITION OF tr_hashed FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE tr_hashed_3 PARTITION OF tr_hashed FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO tr_hashed (n) SELECT generate_series(1, 20000);
SELECT count(*) AS partitions, min(c) > 20000 / 4 * 0.9 AS each_near_a_quarter
FROM (SELECT tableoid, count(*) AS c FROM tr_hashed GROUP BY tableoid) s;
SELECT count(*) AS partitions_scanned,
	bool_and(satisfies_hash_partition('tr_hashed'::regclass, 4, r, '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid)) AS the_one_its_hash_names,
	bool_and(pg_temp.plan_has($$SELECT * FROM tr_hashed WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$,
		'Index Scan using tr_hashed_' || r || '_pkey')) AS by_its_key
FROM generate_series(0, 3) r
WHERE pg_temp.plan_has($$SELECT * FROM tr_hashed WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$, ' on tr_hashed_' || r || ' ');

DROP TABLE tr_orders, tr_generated, tr_events, tr_hashed;
RESET max_parallel_workers_per_gather;
RESET TimeZone;
