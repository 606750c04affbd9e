-- "id <@ r" and "r @> id": the ulid's time, ulid_time(id), lies in the
-- tstzrange r (its ends inclusive or exclusive, unbounded ends too; an empty
-- range holds none), and a btree or BRIN index on the ulid column serves it.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;
\i test/sql/include/plan_has.sql

-- id <@ r, r @> id, and whether both agree with "ulid_time(id) <@ r" and
-- with the index bounds the planner builds (a NULL bound admits no row).
CREATE FUNCTION pg_temp.inr(id ulid, r tstzrange, OUT contained boolean, OUT agrees boolean)
LANGUAGE sql AS $$
	SELECT id <@ r,
		(id <@ r) IS NOT DISTINCT FROM (ulid_time(id) <@ r)
		AND (r @> id) IS NOT DISTINCT FROM (ulid_time(id) <@ r)
		AND (r IS NULL OR id IS NULL
			OR coalesce(id >= ulid_range_lower_bound(r) AND id <= ulid_range_upper_bound(r), false) = (id <@ r))
$$;

-- A ulid of 2024-05-06 07:08:09.123 against ranges ending at or within its millisecond.
SELECT ulid_time('01HX6BPE13ABCDEFGHJKMNPQRS') AS its_time;
SELECT 'from its ms, inclusive' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06 07:08:09.123, 2024-05-07)');
SELECT 'from its ms, exclusive' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '(2024-05-06 07:08:09.123, 2024-05-07)');
SELECT 'to its ms, inclusive' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06, 2024-05-06 07:08:09.123]');
SELECT 'to its ms, exclusive' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06, 2024-05-06 07:08:09.123)');
SELECT 'just its ms' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06 07:08:09.123, 2024-05-06 07:08:09.123]');
SELECT 'from 1 us after its ms' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06 07:08:09.123001, 2024-05-07)');
SELECT 'to 1 us before its ms' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06, 2024-05-06 07:08:09.122999]');
SELECT 'within its ms, after' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06 07:08:09.1225, 2024-05-06 07:08:09.1235)');
SELECT 'inside its ms only' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06 07:08:09.1231, 2024-05-06 07:08:09.1239]');
SELECT 'unbounded below' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '(, 2024-05-06 07:08:09.124)');
SELECT 'unbounded above' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '(2024-05-06 07:08:09.122,)');
SELECT 'unbounded above, later' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[2024-05-06 07:08:09.124,)');
SELECT 'unbounded both' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '(,)');
SELECT 'empty' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', 'empty');
SELECT 'infinity ends' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', '[-infinity, infinity]');
SELECT 'to -infinity' AS r, * FROM pg_temp.inr('00000000000000000000000000', '(, -infinity]');
SELECT 'from infinity' AS r, * FROM pg_temp.inr('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '[infinity,)');
SELECT 'first ms, exclusive' AS r, * FROM pg_temp.inr('00000000000000000000000000', '(1970-01-01+00, 1971-01-01+00)');
SELECT 'last ms, inclusive' AS r, * FROM pg_temp.inr('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '[10889-08-02 05:31:50.655+00, 20000-01-01+00)');
SELECT 'NULL range' AS r, * FROM pg_temp.inr('01HX6BPE13ABCDEFGHJKMNPQRS', NULL);
SELECT 'NULL ulid' AS id, * FROM pg_temp.inr(NULL, '(,)');

-- The index bounds of a range.
SELECT ulid_range_lower_bound('[2024-05-06 07:08:09.123, 2024-05-07)') AS lo_inclusive,
	ulid_range_lower_bound('(2024-05-06 07:08:09.123, 2024-05-07)') AS lo_exclusive,
	ulid_range_upper_bound('[2024-05-06, 2024-05-06 07:08:09.123]') AS hi_inclusive,
	ulid_range_upper_bound('[2024-05-06, 2024-05-06 07:08:09.123)') AS hi_exclusive;
SELECT ulid_range_lower_bound('(,)') AS lo_unbounded, ulid_range_upper_bound('(,)') AS hi_unbounded,
	ulid_range_lower_bound('empty') IS NULL AS lo_empty_is_null,
	ulid_range_upper_bound('empty') IS NULL AS hi_empty_is_null,
	ulid_range_lower_bound('[infinity,)') IS NULL AS lo_infinity_is_null,
	ulid_range_upper_bound('(,-infinity]') IS NULL AS hi_minus_infinity_is_null;

-- 10,000 ids over 30 days, some sharing a millisecond or a second; the
-- primary key is the only index of trs, a BRIN index the only one of trs_brin.
CREATE TABLE trs (id ulid PRIMARY KEY);
INSERT INTO trs SELECT gen_ulid(now() - random() * interval '30 days') FROM generate_series(1, 9000);
INSERT INTO trs SELECT gen_ulid(date_trunc('second', now() - random() * interval '30 days')) FROM generate_series(1, 700);
INSERT INTO trs SELECT gen_monotonic_ulid() FROM generate_series(1, 300);
CREATE TABLE trs_brin (id ulid);
INSERT INTO trs_brin SELECT id FROM trs ORDER BY id;
CREATE INDEX trs_brin_idx ON trs_brin USING brin (id) WITH (pages_per_range = 2);
VACUUM ANALYZE trs, trs_brin;

-- Ranges: between the times of ids 1 us, half a ms and 1 ms either side of
-- them, all four kinds of ends, unbounded ends, empty and infinite; with the
-- rows the ulid_time() form selects as (count, min, max): the rows of a
-- range are a run of the ids in order, so equal counts and ends mean equal rows.
CREATE TABLE edges AS
	SELECT ulid_time(id) + d * interval '1 microsecond' AS ts
	FROM (SELECT id FROM trs ORDER BY random() LIMIT 4) a,
		unnest('{0, 1, -1, 500, 1000}'::int[]) d;
CREATE TABLE ranges AS
	SELECT tstzrange(a.ts, b.ts, k) AS r
	FROM edges a, edges b, unnest('{[], [), (], ()}'::text[]) k
	WHERE a.ts <= b.ts
	UNION ALL
	SELECT tstzrange(a.ts, NULL, k) FROM edges a, unnest('{[), ()}'::text[]) k
	UNION ALL
	SELECT tstzrange(NULL, a.ts, k) FROM edges a, unnest('{(], ()}'::text[]) k
	UNION ALL
	SELECT unnest('{"(,)", empty, "[-infinity, infinity]", "[infinity,)", "(,-infinity]", "[1960-01-01, 1970-01-01]", "(10889-08-02 05:31:50.655, 20000-01-01)", "[294270-01-01,)", "(,294270-01-01)"}'::tstzrange[]);
CREATE TABLE expected AS
	SELECT r, (SELECT row(count(*), min(id), max(id))::text FROM trs WHERE ulid_time(id) <@ r) AS rows
	FROM ranges;
SELECT count(*) > 800 AS many_ranges,
	count(*) FILTER (WHERE rows NOT LIKE '(0,%' AND rows NOT LIKE '(10000,%') > 300 AS most_split_the_table,
	count(*) FILTER (WHERE isempty(r)) > 1 AS some_empty
FROM expected;

-- How many of the two forms select other rows than the ulid_time() form in
-- table t at r; written in plpgsql, so planned with r as a parameter.
CREATE FUNCTION pg_temp.mismatches(t text, e expected) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
	r tstzrange := e.r;
	n int := 0;
	a text;
BEGIN
	FOR i IN 1..2 LOOP
		IF t = 'trs' THEN
			a := CASE i
				WHEN 1 THEN (SELECT row(count(*), min(id), max(id))::text FROM trs WHERE id <@ r)
				ELSE (SELECT row(count(*), min(id), max(id))::text FROM trs WHERE r @> id) END;
		ELSE
			a := CASE i
				WHEN 1 THEN (SELECT row(count(*), min(id), max(id))::text FROM trs_brin WHERE id <@ r)
				ELSE (SELECT row(count(*), min(id), max(id))::text FROM trs_brin WHERE r @> id) END;
		END IF;
		IF a IS DISTINCT FROM e.rows THEN
			n := n + 1;
		END IF;
	END LOOP;
	RETURN n;
END $$;

-- Through the indexes only, r folded at planning (custom plans) and
-- computed at execution (generic plans): no mismatch.
SET enable_seqscan = off;
SET plan_cache_mode = force_custom_plan;
SELECT sum(pg_temp.mismatches('trs', e)) AS btree_mismatches,
	sum(pg_temp.mismatches('trs_brin', e)) AS brin_mismatches
FROM expected e;
SET plan_cache_mode = force_generic_plan;
SELECT sum(pg_temp.mismatches('trs', e)) AS btree_mismatches,
	sum(pg_temp.mismatches('trs_brin', e)) AS brin_mismatches
FROM expected e;
RESET plan_cache_mode;
RESET enable_seqscan;

-- The plans: a range scan of the primary key with both bounds, no filter.
-- An index scan, plain or index-only (the visibility map decides which: not
-- asserted); the sequential and bitmap scans are off, as in timeops: with no
-- page all-visible a bitmap scan may cost less, and a bitmap heap scan would
-- keep the condition as a Filter, exact index condition or not.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.plan_has('SELECT id FROM trs WHERE id <@ tstzrange(now() - interval ''1 day'', now())',
		'trs_pkey') AS last_day_uses_pkey,
	pg_temp.plan_has('SELECT id FROM trs WHERE id <@ tstzrange(now() - interval ''1 day'', now())',
		'Index Cond: ((id >= ulid_range_lower_bound(tstzrange((now() - ''@ 1 day''::interval), now()))) AND (id <= ulid_range_upper_bound(tstzrange((now() - ''@ 1 day''::interval), now()))))')
		AS last_day_bounds,
	pg_temp.plan_has('SELECT id FROM trs WHERE id <@ tstzrange(now() - interval ''1 day'', now())', 'Filter') AS last_day_filters;
RESET enable_bitmapscan;
-- A constant range is folded into constant bounds at planning.
SELECT pg_temp.plan_has($$SELECT id FROM trs WHERE id <@ '[2024-05-06 07:08:09.123, 2024-05-06 07:08:10)'::tstzrange$$,
		'trs_pkey') AS constant_uses_pkey,
	pg_temp.plan_has($$SELECT id FROM trs WHERE id <@ '[2024-05-06 07:08:09.123, 2024-05-06 07:08:10)'::tstzrange$$,
		'Index Cond: ((id >= ''01HX6BPE130000000000000000''::ulid) AND (id <= ''01HX6BPEWFZZZZZZZZZZZZZZZZ''::ulid))')
		AS constant_bounds;
SELECT pg_temp.plan_has('SELECT id FROM trs WHERE ''(2024-05-06 07:08:09.123, 2024-05-06 07:08:10]''::tstzrange @> id',
		'Index Cond: ((id >= ''01HX6BPE140000000000000000''::ulid) AND (id <= ''01HX6BPEWGZZZZZZZZZZZZZZZZ''::ulid))') AS commuted_bounds,
	pg_temp.plan_has('SELECT id FROM trs WHERE id <@ ''[2024-05-06,)''::tstzrange',
		'Index Cond: (id >= ''01HX5K6F000000000000000000''::ulid)') AS unbounded_above_one_bound,
	pg_temp.plan_has('SELECT id FROM trs WHERE id <@ ''empty''::tstzrange',
		'Index Cond: (id < ''00000000000000000000000000''::ulid)') AS empty_is_below_zero,
	(SELECT count(*) FROM trs WHERE id <@ 'empty'::tstzrange) AS empty_rows;
-- BRIN: a bitmap scan with the same bounds.
SELECT pg_temp.plan_has('SELECT id FROM trs_brin WHERE id <@ tstzrange(now() - interval ''1 day'', now())',
		'Bitmap Index Scan on trs_brin_idx') AS brin_last_day;
RESET enable_seqscan;

-- Estimates from the column's statistics (10 days of the 30 are about a
-- third of the rows); a range of now() is estimated with its planning-time value.
CREATE FUNCTION pg_temp.est(query text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	j json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO j;
	RETURN (j->0->'Plan'->>'Plan Rows')::float8;
END $$;
SELECT pg_temp.est(format('SELECT id FROM trs WHERE id <@ %L::tstzrange', tstzrange(now() - interval '10 days', now()))) BETWEEN 2500 AND 4200 AS ten_days_about_a_third,
	pg_temp.est(format('SELECT id FROM trs WHERE %L::tstzrange @> id', tstzrange(now() - interval '10 days', NULL))) BETWEEN 2500 AND 4200 AS commuted_unbounded_about_a_third,
	pg_temp.est('SELECT id FROM trs WHERE id <@ ''(,)''::tstzrange') AS unbounded_all,
	pg_temp.est('SELECT id FROM trs WHERE id <@ ''empty''::tstzrange') AS empty_one,
	pg_temp.est('SELECT id FROM trs WHERE id <@ tstzrange(now() - interval ''10 days'', now())') BETWEEN 2500 AND 4200 AS now_range_about_a_third;

DROP FUNCTION pg_temp.mismatches(text, expected);
DROP TABLE trs, trs_brin, edges, ranges, expected;
