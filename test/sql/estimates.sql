-- Row estimates for time windows on a ulid column, against the same data in
-- a timestamptz column: ulid_ineqsel interpolates within histogram buckets
-- and pairs the two ends of a window.  The target: for one-minute to
-- one-day windows, the ulid estimate is within 2x of the actual count
-- wherever the timestamptz estimate is.
--
-- The data is generated deterministically (md5 of the row number), and each
-- table is smaller than ANALYZE's sample (300 x the statistics target), so
-- the statistics, the estimates and this file's counts are the same on
-- every run.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;

-- A 48-bit number from md5(salt || n).
CREATE FUNCTION pg_temp.h48(salt text, n bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$ SELECT ('x' || substr(md5(salt || n), 1, 12))::bit(48)::bigint $$;
-- The ulid of millisecond ms (Unix) with 80 bits given as 20 hex digits.
CREATE FUNCTION pg_temp.mk(ms bigint, rand text) RETURNS ulid
LANGUAGE sql IMMUTABLE AS $$ SELECT (lpad(to_hex(ms), 12, '0') || rand)::uuid::ulid $$;
-- 2026-11-01 00:00 UTC in Unix milliseconds.
CREATE FUNCTION pg_temp.base() RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$ SELECT 1793491200000::bigint $$;
SELECT to_timestamp(pg_temp.base() / 1000) AS base;

CREATE TABLE est_data (dist text, id ulid, ts timestamptz, u uuid, PRIMARY KEY (dist, id));
-- uniform: 100,000 ids at random times over 30 days.
INSERT INTO est_data (dist, id)
SELECT 'uniform', pg_temp.mk(pg_temp.base() + pg_temp.h48('t', i) % (30 * 86400000::bigint),
							 substr(md5('r' || i), 1, 20))
FROM generate_series(1, 100000) i;
-- bursty: 70% in twelve 20-minute bursts, the rest at random over 30 days.
INSERT INTO est_data (dist, id)
SELECT 'bursty', pg_temp.mk(CASE WHEN i <= 70000
		THEN pg_temp.base() + pg_temp.h48('b', i % 12) % (30 * 86400000::bigint - 1200000)
			+ pg_temp.h48('t', i) % 1200000
		ELSE pg_temp.base() + pg_temp.h48('t', i) % (30 * 86400000::bigint) END,
	substr(md5('r' || i), 1, 20))
FROM generate_series(1, 100000) i;
-- monotonic: 25,000 milliseconds at random over 3 days, each holding 4
-- consecutive ids (gen_monotonic_ulid in a loop: the random part of the
-- first, then one more for each next).
INSERT INTO est_data (dist, id)
SELECT 'monotonic', pg_temp.mk(pg_temp.base() + pg_temp.h48('g', i / 4) % (3 * 86400000::bigint),
	substr(md5('r' || (i / 4)), 1, 4) || lpad(to_hex(pg_temp.h48('s', i / 4) + i % 4), 16, '0'))
FROM generate_series(0, 99999) i;
UPDATE est_data SET ts = ulid_time(id), u = id::uuid;
SELECT dist, count(*), count(DISTINCT id) AS ids, count(DISTINCT ts) AS times,
	min(ts), max(ts)
FROM est_data GROUP BY dist ORDER BY dist;

-- One table per distribution, statistics from every row (target 334: a
-- sample of 100,200 rows).
CREATE TABLE est_uniform (id ulid PRIMARY KEY, ts timestamptz, u uuid);
CREATE TABLE est_bursty (LIKE est_uniform INCLUDING INDEXES);
CREATE TABLE est_monotonic (LIKE est_uniform INCLUDING INDEXES);
DO $$
DECLARE d text;
BEGIN
	FOREACH d IN ARRAY ARRAY['uniform', 'bursty', 'monotonic'] LOOP
		EXECUTE format('INSERT INTO est_%s SELECT id, ts, u FROM est_data WHERE dist = %L ORDER BY id', d, d);
		EXECUTE format('ALTER TABLE est_%s ALTER id SET STATISTICS 334, ALTER ts SET STATISTICS 334, ALTER u SET STATISTICS 334', d);
		EXECUTE format('CREATE INDEX ON est_%s (ts)', d);
		EXECUTE format('ANALYZE est_%s', d);
	END LOOP;
END $$;

-- The planner's row estimate for a query.
CREATE FUNCTION pg_temp.plan_rows(q text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE p json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO p;
	RETURN (p->0->'Plan'->>'Plan Rows')::float8;
END $$;
-- Within 2x of the actual count (1 where none: the planner never says 0).
CREATE FUNCTION pg_temp.within2(est float8, actual float8) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$ SELECT greatest(est, 1) / greatest(actual, 1) BETWEEN 0.5 AND 2 $$;

-- Windows of 1 minute to 1 day: 25 starting points spread over the data's
-- span (at an odd offset, not on bucket or minute edges), and for bursty 12
-- more inside the bursts.
CREATE TABLE est_window AS
SELECT d.dist, s.size, k, w.lo, w.lo + s.size::interval AS hi
FROM (VALUES ('uniform', interval '30 days'), ('bursty', interval '30 days'),
			 ('monotonic', interval '3 days')) d(dist, span),
	 (VALUES ('1 minute'), ('10 minutes'), ('1 hour'), ('6 hours'), ('1 day')) s(size),
	 generate_series(0, 24) k,
	 LATERAL (SELECT to_timestamp(pg_temp.base() / 1000) + d.span * k / 25
				 + interval '7 minutes 13.517 seconds' AS lo) w
UNION ALL
SELECT 'bursty', s.size, 25 + b,
	to_timestamp((pg_temp.base() + pg_temp.h48('b', b) % (30 * 86400000::bigint - 1200000)) / 1000.0)
		+ interval '3 minutes 1.5 seconds',
	to_timestamp((pg_temp.base() + pg_temp.h48('b', b) % (30 * 86400000::bigint - 1200000)) / 1000.0)
		+ interval '3 minutes 1.5 seconds' + s.size::interval
FROM (VALUES ('1 minute'), ('10 minutes'), ('1 hour'), ('6 hours'), ('1 day')) s(size),
	 generate_series(0, 11) b;

-- Each window: the actual count, the timestamptz column's estimate, and the
-- ulid forms: (a) two ulid bounds, (b) two times, (c) id <@ tstzrange,
-- (u) a uuid column with two ulid bounds.
CREATE TABLE est_result AS
SELECT w.*,
	0::float8 AS actual, 0::float8 AS ts_est, 0::float8 AS a_est, 0::float8 AS b_est,
	0::float8 AS c_est, 0::float8 AS u_est, 0::float8 AS old_est
FROM est_window w;
DO $$
DECLARE r record;
BEGIN
	FOR r IN SELECT * FROM est_result LOOP
		UPDATE est_result SET
			actual = (SELECT count(*) FROM est_data WHERE dist = r.dist AND ts >= r.lo AND ts < r.hi),
			ts_est = pg_temp.plan_rows(format('SELECT * FROM est_%s WHERE ts >= %L AND ts < %L', r.dist, r.lo, r.hi)),
			a_est = pg_temp.plan_rows(format('SELECT * FROM est_%s WHERE id >= %L::timestamptz::ulid AND id < %L::timestamptz::ulid', r.dist, r.lo, r.hi)),
			b_est = pg_temp.plan_rows(format('SELECT * FROM est_%s WHERE id >= %L::timestamptz AND id < %L::timestamptz', r.dist, r.lo, r.hi)),
			c_est = pg_temp.plan_rows(format('SELECT * FROM est_%s WHERE id <@ tstzrange(%L, %L)', r.dist, r.lo, r.hi)),
			u_est = pg_temp.plan_rows(format('SELECT * FROM est_%s WHERE u >= %L::timestamptz::ulid AND u < %L::timestamptz::ulid', r.dist, r.lo, r.hi))
		WHERE dist = r.dist AND size = r.size AND k = r.k;
	END LOOP;
END $$;

-- Today's (1.0's) estimator on the same windows, form (a): core's
-- scalargesel/scalarltsel, put back for the length of this block.
DO $$
DECLARE r record;
BEGIN
	ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = scalargesel);
	ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = scalarltsel);
	FOR r IN SELECT * FROM est_result LOOP
		UPDATE est_result SET
			old_est = pg_temp.plan_rows(format('SELECT * FROM est_%s WHERE id >= %L::timestamptz::ulid AND id < %L::timestamptz::ulid', r.dist, r.lo, r.hi))
		WHERE dist = r.dist AND size = r.size AND k = r.k;
	END LOOP;
	ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
	ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
END $$;
SELECT oprname, oprrest FROM pg_operator
WHERE oprleft = 'ulid'::regtype AND oprright = 'ulid'::regtype AND oprname IN ('<', '>=') ORDER BY 1;

-- Per distribution and window size: how many windows the timestamptz
-- estimate gets within 2x, and how many of those each ulid form misses
-- (the target: none), with today's estimator for comparison.
SELECT dist, size, count(*) AS windows,
	count(*) FILTER (WHERE pg_temp.within2(ts_est, actual)) AS ts_ok,
	count(*) FILTER (WHERE pg_temp.within2(ts_est, actual) AND NOT pg_temp.within2(a_est, actual)) AS a_missed,
	count(*) FILTER (WHERE pg_temp.within2(ts_est, actual) AND NOT pg_temp.within2(b_est, actual)) AS b_missed,
	count(*) FILTER (WHERE pg_temp.within2(ts_est, actual) AND NOT pg_temp.within2(c_est, actual)) AS c_missed,
	count(*) FILTER (WHERE pg_temp.within2(ts_est, actual) AND NOT pg_temp.within2(u_est, actual)) AS u_missed,
	count(*) FILTER (WHERE pg_temp.within2(a_est, actual) AND NOT pg_temp.within2(ts_est, actual)) AS a_better,
	count(*) FILTER (WHERE pg_temp.within2(old_est, actual)) AS old_ok
FROM est_result
GROUP BY dist, size
ORDER BY dist, min(hi - lo);

-- The windows that the timestamptz estimate gets within 2x and the ulid
-- estimate does not, if any, with both figures.
SELECT dist, size, k, actual, ts_est, a_est,
	round((a_est / actual)::numeric, 2) AS ulid_ratio, round((ts_est / actual)::numeric, 2) AS ts_ratio
FROM est_result
WHERE pg_temp.within2(ts_est, actual) AND NOT pg_temp.within2(a_est, actual)
ORDER BY dist, size, k;

-- The forms agree: (b) and (c) are (a) with the bounds made from the times,
-- and (u) reads the same values from a uuid column.
SELECT count(*) AS windows,
	count(*) FILTER (WHERE a_est = b_est AND b_est = c_est) AS a_b_c_equal,
	count(*) FILTER (WHERE a_est = u_est) AS a_u_equal
FROM est_result;

-- The worst ratio of estimate to actual over windows of 10 or more rows, for
-- the ulid and timestamptz columns and for today's estimator (rounded to
-- one decimal; above 1 an overestimate).
SELECT round(max(greatest(a_est / actual, actual / a_est))::numeric, 1) AS ulid_worst,
	round(max(greatest(ts_est / actual, actual / ts_est))::numeric, 1) AS ts_worst,
	round(max(greatest(old_est / actual, actual / old_est))::numeric, 1) AS old_worst
FROM est_result WHERE actual >= 10;

-- A single bound, "the last ..." (id > ts): as good as the timestamptz column.
SELECT s.size,
	pg_temp.plan_rows(format('SELECT * FROM est_uniform WHERE id > %L::timestamptz', t)) AS ulid_est,
	pg_temp.plan_rows(format('SELECT * FROM est_uniform WHERE ts > %L::timestamptz', t)) AS ts_est,
	(SELECT count(*) FROM est_uniform WHERE ts > t) AS actual
FROM (VALUES ('1 minute'), ('1 hour'), ('1 day'), ('7 days')) s(size),
	LATERAL (SELECT (SELECT max(ts) FROM est_uniform) - s.size::interval AS t) x
ORDER BY t DESC;

-- How the ends pair.  A window in the middle of the uniform month, written
-- several ways, is estimated the same: either order, a looser bound on
-- either side, the ends mixed (a time and a ulid), strict or not.
CREATE TABLE est_forms (form text, q text);
INSERT INTO est_forms VALUES
	('ulid bounds', 'id >= $1::ulid AND id < $2::ulid'),
	('reversed', 'id < $2::ulid AND id >= $1::ulid'),
	('looser lower too', 'id > $0::ulid AND id >= $1::ulid AND id < $2::ulid'),
	('looser upper too', 'id >= $1::ulid AND id < $2::ulid AND id <= $3::ulid'),
	('time and ulid', 'id >= $1 AND id < $2::ulid'),
	('times', 'id >= $1 AND id < $2'),
	('inclusive upper', 'id >= $1::ulid AND id <= $2::ulid'),
	('commuted', '$1::ulid <= id AND $2 > id'),
	('uuid bounds', 'id >= $1::ulid::uuid AND id < $2::ulid::uuid');
SELECT form, pg_temp.plan_rows('SELECT * FROM est_uniform WHERE ' ||
		replace(replace(replace(replace(q, '$0', '''2026-11-14 00:00''::timestamptz'),
			'$1', '''2026-11-15 12:00''::timestamptz'), '$2', '''2026-11-15 13:00''::timestamptz'),
			'$3', '''2026-11-17 00:00''::timestamptz')) AS est,
	(SELECT count(*) FROM est_uniform WHERE id >= '2026-11-15 12:00'::timestamptz::ulid AND id < '2026-11-15 13:00'::timestamptz::ulid) AS actual
FROM est_forms ORDER BY form;

-- The index scan's own estimate pairs the same way: its conditions, made
-- from "id >= ts AND id < ts" by the planner support, find the clauses
-- they came from.  (Not the plan shape: the numbers.)
CREATE FUNCTION pg_temp.scan_rows(q text) RETURNS TABLE (node text, rows float8)
LANGUAGE plpgsql AS $$
DECLARE p json;
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = off;
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO p;
	node := p->0->'Plan'->>'Node Type';
	rows := (p->0->'Plan'->>'Plan Rows')::float8;
	RETURN NEXT;
	IF p->0->'Plan'->'Plans' IS NOT NULL THEN
		node := p->0->'Plan'->'Plans'->0->>'Node Type';
		rows := (p->0->'Plan'->'Plans'->0->>'Plan Rows')::float8;
		RETURN NEXT;
	END IF;
END $$;
BEGIN;
SELECT * FROM pg_temp.scan_rows('SELECT * FROM est_uniform WHERE id >= ''2026-11-15 12:00''::timestamptz AND id < ''2026-11-15 13:00''::timestamptz');
SELECT * FROM pg_temp.scan_rows('SELECT * FROM est_uniform WHERE id <@ tstzrange(''2026-11-15 12:00'', ''2026-11-15 13:00'')');
COMMIT;
SELECT count(*) AS actual FROM est_uniform WHERE ts >= '2026-11-15 12:00' AND ts < '2026-11-15 13:00';

-- Without constants (a generic plan's parameters), and without statistics:
-- core's guess for a window, 0.5% of the rows (500 of 100,000), not two
-- independent thirds (11,111).
PREPARE win(ulid, ulid) AS SELECT * FROM est_uniform WHERE id >= $1 AND id < $2;
PREPARE win_ts(timestamptz, timestamptz) AS SELECT * FROM est_uniform WHERE id >= $1 AND id < $2;
SET plan_cache_mode = force_generic_plan;
SELECT pg_temp.plan_rows('EXECUTE win(''2026-11-15 12:00''::timestamptz::ulid, ''2026-11-15 13:00''::timestamptz::ulid)') AS generic_window;
SELECT pg_temp.plan_rows('EXECUTE win_ts(''2026-11-15 12:00'', ''2026-11-15 13:00'')') AS generic_time_window;
RESET plan_cache_mode;
CREATE TABLE est_nostats (LIKE est_uniform);
ALTER TABLE est_nostats SET (autovacuum_enabled = off);
INSERT INTO est_nostats SELECT * FROM est_uniform;
VACUUM est_nostats;
SELECT pg_temp.plan_rows('SELECT * FROM est_nostats WHERE id >= ''2026-11-15 12:00''::timestamptz::ulid AND id < ''2026-11-15 13:00''::timestamptz::ulid') AS no_stats_window,
	pg_temp.plan_rows('SELECT * FROM est_nostats WHERE id > ''2026-11-15 12:00''::timestamptz::ulid') AS no_stats_bound;

-- A window outside the data: the planner's one row.  Reversed bounds: core's
-- guess for what it takes for a bogus estimate, as for timestamptz.
SELECT pg_temp.plan_rows('SELECT * FROM est_uniform WHERE id >= ''2027-06-01''::timestamptz AND id < ''2027-06-02''::timestamptz') AS after_the_data,
	pg_temp.plan_rows('SELECT * FROM est_uniform WHERE id >= ''2026-11-16''::timestamptz AND id < ''2026-11-15''::timestamptz') AS reversed_bounds,
	pg_temp.plan_rows('SELECT * FROM est_uniform WHERE ts >= ''2026-11-16'' AND ts < ''2026-11-15''') AS reversed_bounds_ts,
	pg_temp.plan_rows('SELECT * FROM est_uniform WHERE id > ''infinity''::timestamptz') AS after_infinity;

-- Equality is core's eqsel as before: one row for a unique column.
SELECT pg_temp.plan_rows('SELECT * FROM est_uniform WHERE id = ''2026-11-15 12:00''::timestamptz::ulid') AS equality,
	pg_temp.plan_rows('SELECT * FROM est_uniform WHERE id = ''2026-11-15 12:00''::timestamptz::ulid::uuid') AS equality_uuid;

-- Joins keep core's estimators (scalarltjoinsel ...): the estimate of a
-- join on "<" is the same as for the timestamptz columns' join.
SELECT pg_temp.plan_rows('SELECT * FROM est_uniform a JOIN est_bursty b ON a.id < b.id') =
	pg_temp.plan_rows('SELECT * FROM est_uniform a JOIN est_bursty b ON a.ts < b.ts') AS same_as_timestamptz_join;

-- Windows in the arms of an OR pair within each arm, as core pairs them
-- for timestamptz.
SELECT pg_temp.plan_rows($q$SELECT * FROM est_uniform
	WHERE (id >= '2026-11-10 12:00'::timestamptz AND id < '2026-11-10 13:00'::timestamptz)
	   OR (id >= '2026-11-20 12:00'::timestamptz AND id < '2026-11-20 14:00'::timestamptz)$q$) AS ulid_est,
	pg_temp.plan_rows($q$SELECT * FROM est_uniform
	WHERE (ts >= '2026-11-10 12:00' AND ts < '2026-11-10 13:00')
	   OR (ts >= '2026-11-20 12:00' AND ts < '2026-11-20 14:00')$q$) AS ts_est,
	(SELECT count(*) FROM est_uniform
	 WHERE (ts >= '2026-11-10 12:00' AND ts < '2026-11-10 13:00')
		OR (ts >= '2026-11-20 12:00' AND ts < '2026-11-20 14:00')) AS actual;

-- Rows made since ANALYZE: 3,000 on the day after the analyzed month.  The
-- histogram ends before them; its last bound is moved to the largest id in
-- the primary key, as core moves the timestamptz column's to the largest
-- in its index, so "the last ..." is not estimated at one row.
CREATE TABLE est_growing (LIKE est_uniform INCLUDING INDEXES);
ALTER TABLE est_growing SET (autovacuum_enabled = off);
ALTER TABLE est_growing ALTER id SET STATISTICS 334, ALTER ts SET STATISTICS 334;
CREATE INDEX ON est_growing (ts);
INSERT INTO est_growing SELECT * FROM est_uniform;
ANALYZE est_growing;
INSERT INTO est_growing (id, ts)
SELECT pg_temp.mk(pg_temp.base() + 30 * 86400000::bigint + pg_temp.h48('n', i) % 86400000, substr(md5('n' || i), 1, 20)), NULL
FROM generate_series(1, 3000) i;
UPDATE est_growing SET ts = ulid_time(id) WHERE ts IS NULL;
SELECT w AS since,
	pg_temp.plan_rows(format('SELECT * FROM est_growing WHERE id > %L::timestamptz', w)) AS ulid_est,
	pg_temp.plan_rows(format('SELECT * FROM est_growing WHERE ts > %L::timestamptz', w)) AS ts_est,
	(SELECT count(*) FROM est_growing WHERE ts > w) AS actual
FROM unnest(ARRAY['2026-11-30 12:00', '2026-12-01 00:00', '2026-12-01 12:00']::timestamptz[]) w;

-- A bound whose value a STABLE function computes by a query of its own,
-- which is planned while the outer clause is estimated (in a memory
-- context of its own), once for the estimate and again for the bounds of
-- the window: the outer estimate and plan go on, and the rows are right.
CREATE FUNCTION est_newest_before(ulid) RETURNS ulid LANGUAGE sql STABLE
	AS $$SELECT max(id) FROM est_uniform WHERE id < $1 AND id > $1::timestamptz - interval '1 day'$$;
SELECT pg_temp.plan_rows($$SELECT * FROM est_uniform
	WHERE id > est_newest_before('2026-11-15 12:00'::timestamptz::ulid)
	  AND id < '2026-11-15 13:00'::timestamptz$$) > 0 AS estimated,
	(SELECT count(*) FROM est_uniform
	 WHERE id > est_newest_before('2026-11-15 12:00'::timestamptz::ulid)
	   AND id < '2026-11-15 13:00'::timestamptz) =
	(SELECT count(*) FROM est_uniform
	 WHERE id >= '2026-11-15 12:00'::timestamptz AND id < '2026-11-15 13:00'::timestamptz) AS rows_right;
DROP FUNCTION est_newest_before(ulid);

DROP TABLE est_data, est_uniform, est_bursty, est_monotonic, est_window, est_result, est_forms, est_nostats, est_growing;
