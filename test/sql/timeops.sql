-- Comparing a ulid with a time: id < ts, <=, >, >= and their commutators
-- mean "the ulid's time (ulid_time(id), a whole millisecond) compared with
-- that instant", and a btree or BRIN index on the ulid column serves them.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;
\i test/sql/include/plan_has.sql

-- The four results of id op ts, and whether all eight operator forms agree
-- with the ulid_time() form and with the index bounds the planner builds
-- (a NULL bound admits no row).
CREATE FUNCTION pg_temp.cmp(id ulid, ts timestamptz,
	OUT lt boolean, OUT le boolean, OUT ge boolean, OUT gt boolean, OUT agrees boolean)
LANGUAGE sql AS $$
	SELECT id < ts, id <= ts, id >= ts, id > ts,
		(id < ts) IS NOT DISTINCT FROM (ulid_time(id) < ts)
		AND (id <= ts) IS NOT DISTINCT FROM (ulid_time(id) <= ts)
		AND (id >= ts) IS NOT DISTINCT FROM (ulid_time(id) >= ts)
		AND (id > ts) IS NOT DISTINCT FROM (ulid_time(id) > ts)
		AND (ts > id) IS NOT DISTINCT FROM (ulid_time(id) < ts)
		AND (ts >= id) IS NOT DISTINCT FROM (ulid_time(id) <= ts)
		AND (ts <= id) IS NOT DISTINCT FROM (ulid_time(id) >= ts)
		AND (ts < id) IS NOT DISTINCT FROM (ulid_time(id) > ts)
		AND coalesce(id <= ulid_time_upper_bound(ts, false), false) = coalesce(id < ts, false)
		AND coalesce(id <= ulid_time_upper_bound(ts, true), false) = coalesce(id <= ts, false)
		AND coalesce(id >= ulid_time_lower_bound(ts, true), false) = coalesce(id >= ts, false)
		AND coalesce(id >= ulid_time_lower_bound(ts, false), false) = coalesce(id > ts, false)
$$;

-- A ulid of 2024-05-06 07:08:09.123 against times around its millisecond.
SELECT ulid_time('01HX6BPE13ABCDEFGHJKMNPQRS') AS its_time;
SELECT 'exactly its millisecond' AS ts, * FROM pg_temp.cmp('01HX6BPE13ABCDEFGHJKMNPQRS', '2024-05-06 07:08:09.123');
SELECT '1 us later' AS ts, * FROM pg_temp.cmp('01HX6BPE13ABCDEFGHJKMNPQRS', '2024-05-06 07:08:09.123001');
SELECT '1 us earlier' AS ts, * FROM pg_temp.cmp('01HX6BPE13ABCDEFGHJKMNPQRS', '2024-05-06 07:08:09.122999');
SELECT 'half a ms later' AS ts, * FROM pg_temp.cmp('01HX6BPE13ABCDEFGHJKMNPQRS', '2024-05-06 07:08:09.1235');
SELECT 'half a ms earlier' AS ts, * FROM pg_temp.cmp('01HX6BPE13ABCDEFGHJKMNPQRS', '2024-05-06 07:08:09.1225');
SELECT 'the next millisecond' AS ts, * FROM pg_temp.cmp('01HX6BPE13ABCDEFGHJKMNPQRS', '2024-05-06 07:08:09.124');
SELECT 'the previous millisecond' AS ts, * FROM pg_temp.cmp('01HX6BPE13ABCDEFGHJKMNPQRS', '2024-05-06 07:08:09.122');
-- The first and last ulid of a millisecond compare the same.
SELECT 'smallest of its ms' AS id, * FROM pg_temp.cmp(ulid_min_at('2024-05-06 07:08:09.123'), '2024-05-06 07:08:09.123');
SELECT 'largest of its ms' AS id, * FROM pg_temp.cmp(ulid_max_at('2024-05-06 07:08:09.123'), '2024-05-06 07:08:09.123');
-- The first ULID millisecond, 1970-01-01 00:00:00 UTC.
SELECT 'first ms, exactly' AS ts, * FROM pg_temp.cmp('00000000000000000000000000', '1970-01-01 00:00:00+00');
SELECT 'first ms, 1 us before' AS ts, * FROM pg_temp.cmp('00000000000000000000000000', '1969-12-31 23:59:59.999999+00');
SELECT 'first ms, 1 us after' AS ts, * FROM pg_temp.cmp('0000000000ZZZZZZZZZZZZZZZZ', '1970-01-01 00:00:00.000001+00');
-- The last ULID millisecond, 10889-08-02 05:31:50.655 UTC.
SELECT 'last ms, exactly' AS ts, * FROM pg_temp.cmp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '10889-08-02 05:31:50.655+00');
SELECT 'last ms, 1 us before' AS ts, * FROM pg_temp.cmp('7ZZZZZZZZZ0000000000000000', '10889-08-02 05:31:50.654999+00');
SELECT 'last ms, 1 us after' AS ts, * FROM pg_temp.cmp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '10889-08-02 05:31:50.655001+00');
-- Times no ulid holds: every ulid is after 1960 and before 20000; no error.
SELECT 'before 1970' AS ts, * FROM pg_temp.cmp('00000000000000000000000000', '1960-01-01 00:00:00+00');
SELECT 'after 10889' AS ts, * FROM pg_temp.cmp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '20000-01-01 00:00:00+00');
-- The last years timestamptz holds, where adding the 1970 offset would
-- overflow 64 bits.
SELECT 'year 294270' AS ts, * FROM pg_temp.cmp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '294270-01-01 00:00:00+00');
SELECT '+infinity' AS ts, * FROM pg_temp.cmp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'infinity');
SELECT '-infinity' AS ts, * FROM pg_temp.cmp('00000000000000000000000000', '-infinity');
-- NULL on either side: NULL, as every strict comparison.
SELECT 'NULL time' AS ts, * FROM pg_temp.cmp('01HX6BPE13ABCDEFGHJKMNPQRS', NULL);
SELECT 'NULL ulid' AS id, * FROM pg_temp.cmp(NULL, '2024-05-06 07:08:09.123');
-- timestamp without time zone and date compare through their casts to timestamptz.
SELECT '01HX6BPE13ABCDEFGHJKMNPQRS'::ulid > '2024-05-06'::date AS after_date,
	'01HX6BPE13ABCDEFGHJKMNPQRS'::ulid < '2024-05-06 07:08:09.1231'::timestamp AS before_timestamp;
-- No = between ulid and timestamptz: a millisecond holds many ulids.
SELECT count(*) AS ulid_timestamptz_eq_operators FROM pg_operator
WHERE oprname = '=' AND oprleft = 'ulid'::regtype AND oprright = 'timestamptz'::regtype;

-- The index bounds: the first or last ulid of the first or last millisecond
-- that satisfies the comparison, NULL when no ulid does.
SELECT ulid_time_lower_bound('2024-05-06 07:08:09.123', true) AS ge_on_ms,
	ulid_time_lower_bound('2024-05-06 07:08:09.123', false) AS gt_on_ms,
	ulid_time_lower_bound('2024-05-06 07:08:09.1225', true) AS ge_within_ms,
	ulid_time_lower_bound('2024-05-06 07:08:09.1225', false) AS gt_within_ms;
SELECT ulid_time_upper_bound('2024-05-06 07:08:09.123', true) AS le_on_ms,
	ulid_time_upper_bound('2024-05-06 07:08:09.123', false) AS lt_on_ms,
	ulid_time_upper_bound('2024-05-06 07:08:09.1235', true) AS le_within_ms,
	ulid_time_upper_bound('2024-05-06 07:08:09.1235', false) AS lt_within_ms;
SELECT ulid_time_lower_bound('-infinity', false) AS gt_minus_infinity,
	ulid_time_lower_bound('1960-01-01+00', false) AS gt_1960,
	ulid_time_lower_bound('1970-01-01+00', true) AS ge_first_ms,
	ulid_time_lower_bound('1970-01-01+00', false) AS gt_first_ms;
SELECT ulid_time_lower_bound('10889-08-02 05:31:50.655+00', true) AS ge_last_ms,
	ulid_time_lower_bound('10889-08-02 05:31:50.655+00', false) IS NULL AS gt_last_ms_is_null,
	ulid_time_lower_bound('10889-08-02 05:31:50.654001+00', true) AS ge_within_last_but_one,
	ulid_time_lower_bound('infinity', true) IS NULL AS ge_infinity_is_null;
SELECT ulid_time_upper_bound('infinity', false) AS lt_infinity,
	ulid_time_upper_bound('20000-01-01+00', false) AS lt_20000,
	ulid_time_upper_bound('294270-01-01+00', false) AS lt_294270,
	ulid_time_lower_bound('294270-01-01+00', true) IS NULL AS ge_294270_is_null,
	ulid_time_upper_bound('10889-08-02 05:31:50.655+00', false) AS lt_last_ms,
	ulid_time_upper_bound('10889-08-02 05:31:50.655+00', true) AS le_last_ms;
SELECT ulid_time_upper_bound('1970-01-01+00', true) AS le_first_ms,
	ulid_time_upper_bound('1970-01-01+00', false) IS NULL AS lt_first_ms_is_null,
	ulid_time_upper_bound('1960-01-01+00', true) IS NULL AS le_1960_is_null,
	ulid_time_upper_bound('-infinity', true) IS NULL AS le_minus_infinity_is_null;

-- A table of random ids over 30 days, some sharing their millisecond, and
-- monotonic ids (many a millisecond); the primary key is its only index.
CREATE TABLE tops (id ulid PRIMARY KEY);
INSERT INTO tops SELECT gen_ulid(now() - random() * interval '30 days') FROM generate_series(1, 9000);
INSERT INTO tops SELECT gen_ulid(date_trunc('second', now() - random() * interval '30 days')) FROM generate_series(1, 700);
INSERT INTO tops SELECT gen_monotonic_ulid() FROM generate_series(1, 300);
-- The same rows in time order under a BRIN index only.
CREATE TABLE tops_brin (id ulid);
INSERT INTO tops_brin SELECT id FROM tops ORDER BY id;
CREATE INDEX tops_brin_idx ON tops_brin USING brin (id) WITH (pages_per_range = 2);
VACUUM ANALYZE tops, tops_brin;
SELECT count(*) AS expression_indexes FROM pg_index
WHERE indrelid IN ('tops'::regclass, 'tops_brin'::regclass) AND indexprs IS NOT NULL;

-- Times to compare with: the times of 16 ids (the first 8, the last 8) and
-- each 1 us, half a ms and 1 ms either side, and the edges; with the rows
-- that the ulid_time() form selects, as (count, min, max).  The rows an
-- index bound selects are a prefix or a suffix of the ids in order, as are
-- those the ulid_time() form selects, so equal counts mean equal rows; min
-- and max are shown too.
CREATE TABLE times AS
	SELECT ulid_time(id) + d * interval '1 microsecond' AS ts
	FROM (SELECT id FROM tops ORDER BY id LIMIT 8) a,
		unnest('{0, 1, -1, 500, -500, 1000, -1000}'::int[]) d
	UNION ALL
	SELECT ulid_time(id) + d * interval '1 microsecond'
	FROM (SELECT id FROM tops ORDER BY id DESC LIMIT 8) a,
		unnest('{0, 1, -1, 500, -500, 1000, -1000}'::int[]) d
	UNION ALL
	SELECT unnest('{infinity, -infinity, 1960-01-01, 1970-01-01, 10889-08-02 05:31:50.655, 20000-01-01, 294270-01-01}'::timestamptz[]);
CREATE TABLE expected AS
	SELECT ts,
		(SELECT row(count(*), min(id), max(id))::text FROM tops WHERE ulid_time(id) < ts) AS lt,
		(SELECT row(count(*), min(id), max(id))::text FROM tops WHERE ulid_time(id) <= ts) AS le,
		(SELECT row(count(*), min(id), max(id))::text FROM tops WHERE ulid_time(id) >= ts) AS ge,
		(SELECT row(count(*), min(id), max(id))::text FROM tops WHERE ulid_time(id) > ts) AS gt
	FROM times;
SELECT count(*) AS times,
	count(*) FILTER (WHERE lt NOT LIKE '(0,%' AND ge NOT LIKE '(0,%') > 60 AS most_split_the_table
FROM expected;

-- How many of the eight forms select other rows than the ulid_time() form,
-- in the table t ('tops' or 'tops_brin'), at ts; the comparisons are written
-- in plpgsql, so they are planned with ts as a parameter.
CREATE FUNCTION pg_temp.mismatches(t text, e expected) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
	ts timestamptz := e.ts;
	n int := 0;
	a text;
BEGIN
	FOR i IN 1..8 LOOP
		IF t = 'tops' THEN
			a := CASE i
				WHEN 1 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops WHERE id < ts)
				WHEN 2 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops WHERE id <= ts)
				WHEN 3 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops WHERE id >= ts)
				WHEN 4 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops WHERE id > ts)
				WHEN 5 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops WHERE ts > id)
				WHEN 6 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops WHERE ts >= id)
				WHEN 7 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops WHERE ts <= id)
				ELSE (SELECT row(count(*), min(id), max(id))::text FROM tops WHERE ts < id) END;
		ELSE
			a := CASE i
				WHEN 1 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops_brin WHERE id < ts)
				WHEN 2 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops_brin WHERE id <= ts)
				WHEN 3 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops_brin WHERE id >= ts)
				WHEN 4 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops_brin WHERE id > ts)
				WHEN 5 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops_brin WHERE ts > id)
				WHEN 6 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops_brin WHERE ts >= id)
				WHEN 7 THEN (SELECT row(count(*), min(id), max(id))::text FROM tops_brin WHERE ts <= id)
				ELSE (SELECT row(count(*), min(id), max(id))::text FROM tops_brin WHERE ts < id) END;
		END IF;
		IF a IS DISTINCT FROM (CASE WHEN i IN (1, 5) THEN e.lt WHEN i IN (2, 6) THEN e.le
								WHEN i IN (3, 7) THEN e.ge ELSE e.gt END) THEN
			n := n + 1;
		END IF;
	END LOOP;
	RETURN n;
END $$;

-- Through the indexes only (no sequential scan of tops or tops_brin), with
-- ts folded into a constant bound (custom plans) and computed at execution
-- (generic plans); every form selects exactly the ulid_time() form's rows.
-- (A bitmap scan rechecks each row it fetches with the comparison itself, so
-- through BRIN this catches a bound that is too narrow, not one too wide.)
SET enable_seqscan = off;
SET plan_cache_mode = force_custom_plan;
SELECT sum(pg_temp.mismatches('tops', e)) AS btree_mismatches,
	sum(pg_temp.mismatches('tops_brin', e)) AS brin_mismatches
FROM expected e;
SET plan_cache_mode = force_generic_plan;
SELECT sum(pg_temp.mismatches('tops', e)) AS btree_mismatches,
	sum(pg_temp.mismatches('tops_brin', e)) AS brin_mismatches
FROM expected e;
RESET plan_cache_mode;
RESET enable_seqscan;

-- The plans: a range scan of the primary key, no filter, no expression
-- index.  An index scan, plain or index-only: which of the two depends on
-- the visibility map, not on ulid, and is not asserted.  The sequential and
-- bitmap scans are off, as the visibility map may make them cheaper: VACUUM
-- marks no page all-visible while the commit of its rows is not yet flushed
-- (under synchronous_commit = off, say).  A bitmap heap scan would keep the
-- comparison as a Filter, exact index condition or not: core drops there
-- only a clause that is itself an index condition.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.plan_has('SELECT id FROM tops WHERE id > now() - interval ''1 day''',
		'tops_pkey') AS last_day_uses_pkey,
	pg_temp.plan_has('SELECT id FROM tops WHERE id > now() - interval ''1 day''',
		'Index Cond: (id >= ulid_time_lower_bound((now() - ''@ 1 day''::interval), false))') AS last_day_bound,
	pg_temp.plan_has('SELECT id FROM tops WHERE id > now() - interval ''1 day''', 'Filter') AS last_day_filters;
SELECT pg_temp.plan_has('SELECT id FROM tops WHERE id <= ''2024-05-06 07:08:09.1235+00''::timestamptz',
		'tops_pkey') AS le_uses_pkey,
	pg_temp.plan_has('SELECT id FROM tops WHERE id <= ''2024-05-06 07:08:09.1235+00''::timestamptz',
		'Index Cond: (id <= ''01HX6BPE13ZZZZZZZZZZZZZZZZ''::ulid)') AS le_bound_is_last_ulid_of_ms;
SELECT pg_temp.plan_has(format('SELECT id FROM tops WHERE %L::timestamptz < id', now() - interval '1 hour'),
		'tops_pkey') AS commuted_uses_pkey;
-- A constant time is folded into a constant bound at planning.
SELECT pg_temp.plan_has('SELECT id FROM tops WHERE ''2024-05-06 07:08:09.123+00''::timestamptz < id',
		'Index Cond: (id >= ''01HX6BPE140000000000000000''::ulid)') AS gt_bound_is_next_ms,
	pg_temp.plan_has('SELECT id FROM tops WHERE id >= ''2024-05-06 07:08:09.1225+00''::timestamptz',
		'Index Cond: (id >= ''01HX6BPE130000000000000000''::ulid)') AS ge_bound_is_next_ms,
	pg_temp.plan_has('SELECT id FROM tops WHERE id < ''2024-05-06 07:08:09.123+00''::timestamptz',
		'Index Cond: (id <= ''01HX6BPE12ZZZZZZZZZZZZZZZZ''::ulid)') AS lt_bound_is_previous_ms;
RESET enable_bitmapscan;
RESET enable_seqscan;
-- No ulid is after +infinity: below the zero ULID, which no id is.
SELECT pg_temp.plan_has('SELECT id FROM tops WHERE id > ''infinity''::timestamptz',
		'Index Cond: (id < ''00000000000000000000000000''::ulid)') AS gt_infinity_below_zero,
	(SELECT count(*) FROM tops WHERE id > 'infinity'::timestamptz) AS gt_infinity_rows,
	(SELECT count(*) FROM tops WHERE id < 'infinity'::timestamptz) AS lt_infinity_rows;
-- A constant time (or tstzrange) is simplified when planned to comparisons
-- with constant ulids, exactly equivalent, NULLs included: what matches a
-- ulid constant, such as partition pruning here, matches a time too.
CREATE TABLE tparts (id ulid) PARTITION BY RANGE (id);
CREATE TABLE tparts_2024 PARTITION OF tparts
	FOR VALUES FROM ('2024-01-01 00:00+00'::timestamptz::ulid) TO ('2025-01-01 00:00+00'::timestamptz::ulid);
CREATE TABLE tparts_2025 PARTITION OF tparts
	FOR VALUES FROM ('2025-01-01 00:00+00'::timestamptz::ulid) TO ('2026-01-01 00:00+00'::timestamptz::ulid);
INSERT INTO tparts VALUES (gen_ulid('2024-06-01 00:00+00')), (gen_ulid('2025-06-01 00:00+00'));
CREATE TABLE tparts_rest PARTITION OF tparts DEFAULT;
INSERT INTO tparts VALUES (NULL);
SELECT pg_temp.plan_has('SELECT * FROM tparts WHERE id >= ''2025-01-01 00:00+00''::timestamptz',
		'tparts_2024') AS from_2025_reads_2024,
	pg_temp.plan_has('SELECT * FROM tparts WHERE id >= ''2025-01-01 00:00+00''::timestamptz',
		'tparts_2025') AS from_2025_reads_2025,
	pg_temp.plan_has('SELECT * FROM tparts WHERE id <@ tstzrange(''2024-03-01 00:00+00'', ''2024-04-01 00:00+00'')',
		'tparts_2025') AS march_2024_reads_2025,
	pg_temp.plan_has('SELECT * FROM tparts WHERE id <@ tstzrange(''2024-03-01 00:00+00'', ''2024-04-01 00:00+00'')',
		'tparts_2024') AS march_2024_reads_2024;
SELECT (SELECT count(*) FROM tparts WHERE NOT (id > 'infinity'::timestamptz)) AS not_after_infinity,
	(SELECT count(*) FROM tparts WHERE NOT (id <@ 'empty'::tstzrange)) AS not_in_empty,
	(SELECT count(*) FROM tparts WHERE NOT (id <@ '(,)'::tstzrange)) AS not_in_all,
	(SELECT count(*) FROM tparts WHERE NOT (id < '2025-01-01 00:00+00'::timestamptz)) AS not_before_2025,
	(SELECT count(*) FROM tparts WHERE (id > 'infinity'::timestamptz) IS NULL) AS null_stays_null;
DROP TABLE tparts;
-- A parameter: the bound is computed when the scan starts.  (A generic
-- plan expects a third of the rows: without the visibility map, a
-- sequential scan costs less, so it is off, as above.)
PREPARE since(timestamptz) AS SELECT id FROM tops WHERE id >= $1;
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
SELECT pg_temp.plan_has('EXECUTE since(''2024-05-06'')',
		'Index Cond: (id >= ulid_time_lower_bound($1, true))') AS generic_bound;
RESET enable_seqscan;
RESET plan_cache_mode;
-- BRIN: a bitmap scan of the BRIN index with the same bounds.
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT id FROM tops_brin WHERE id > now() - interval ''1 day''',
		'Bitmap Index Scan on tops_brin_idx') AS brin_last_day,
	pg_temp.plan_has('SELECT id FROM tops_brin WHERE ''2024-05-06''::timestamptz >= id',
		'Index Cond: (id <= ''01HX5K6F00ZZZZZZZZZZZZZZZZ''::ulid)') AS brin_commuted_bound;
RESET enable_seqscan;
-- A timestamptz index is not served by these (the support function answers
-- only for the ulid side): the comparison stays a filter there.
CREATE TABLE tops_ts (ts timestamptz PRIMARY KEY);
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT * FROM tops_ts WHERE ts < ''01HX6BPE13ABCDEFGHJKMNPQRS''::ulid', 'Index Cond') AS ts_index_used;
RESET enable_seqscan;

DROP FUNCTION pg_temp.mismatches(text, expected);
DROP TABLE tops, tops_brin, times, expected, tops_ts;
