-- The UUIDv7-shaped generators, checked through invariants: every value
-- carries the RFC 9562 version 7 and variant 10 bits, the time window,
-- distinctness, order; gen_monotonic_ulid_v7() beside gen_monotonic_ulid().
-- Core's own UUIDv7 functions (PostgreSQL 18 on) check them in uuidv7.sql;
-- the cluster scope is checked in t/001_monotonic_cluster.pl.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- The shape, read two ways: the high 4 bits of byte 6 are 0111 and the high
-- 2 bits of byte 8 are 10; in uuid text, the 13th hex digit is 7 and the
-- 17th one of 8, 9, a, b.
CREATE FUNCTION pg_temp.v7_shaped(id ulid) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
	SELECT get_byte(id::bytea, 6) >> 4 = 7 AND get_byte(id::bytea, 8) >> 6 = 2
		AND substr(id::uuid::text, 15, 1) = '7'
		AND substr(id::uuid::text, 20, 1) IN ('8', '9', 'a', 'b')
$$;
-- The check can fail: gen_ulid() values have random bits there.
SELECT bool_and(pg_temp.v7_shaped(gen_ulid())) AS gen_ulid_all_shaped
FROM generate_series(1, 1000);

-- gen_ulid_v7(): 100,000 values, all distinct, all shaped, each stamped with
-- a time inside the clock_timestamp() window around its own call.
CREATE TEMP TABLE gen_v7 AS
	SELECT clock_timestamp() AS before, gen_ulid_v7() AS id, clock_timestamp() AS after
	FROM generate_series(1, 100000);
SELECT count(*) AS total, count(DISTINCT id) AS distinct_ids FROM gen_v7;
SELECT count(*) AS not_shaped FROM gen_v7 WHERE NOT pg_temp.v7_shaped(id);
SELECT count(*) AS outside_window FROM gen_v7
WHERE ulid_time(id) < date_trunc('milliseconds', before) OR ulid_time(id) > after;
-- Over 100,000 ids, the bits of bytes 6 to 15 that are set in every id and
-- those clear in every id: only the version (0111) and the variant (10);
-- the others are each set in some ids and clear in others.  rand_a's top
-- bit (8 in byte 6) is left out of clear_in_all: it is clear in the first
-- id of each millisecond and set only once rand_a counts up to 2,048, which
-- a slow server (Valgrind) may never reach; the guard is checked below.
SELECT k AS byte, bit_and(get_byte(id::bytea, k))::bit(8) AS set_in_all,
	(255 - bit_or(get_byte(id::bytea, k) | CASE WHEN k = 6 THEN 8 ELSE 0 END))::bit(8) AS clear_in_all
FROM gen_v7, generate_series(6, 15) k GROUP BY k ORDER BY k;
-- The text form is still ULID text, and round-trips.
SELECT count(*) AS not_ulid_text FROM gen_v7
WHERE id::text !~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$' OR id::text::ulid <> id;

-- Within one millisecond the session's gen_ulid_v7() values ascend as
-- gen_ulid()'s do, counting in rand_a (the low 12 bits of bytes 6-7) with
-- fresh rand_b below: each has the rand_a of the one before plus one, except
-- where rand_a is at its largest, 4095, and the value is fresh random bits.
-- The first value of a millisecond, and of such a restart, starts rand_a
-- below 2048 (RFC 9562's rollover guard), so a run lasts at least 2,049
-- values and 100,000 values restart at most 48 times, however fast.
CREATE FUNCTION pg_temp.rand_a(u ulid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT
RETURN (get_byte(u::bytea, 6) & 15) * 256 + get_byte(u::bytea, 7);
CREATE TEMP TABLE gen_v7_seq AS
	SELECT n, gen_ulid_v7() AS id FROM generate_series(1, 100000) n;
SELECT count(*) > 10000 AS many_share_a_millisecond,
	   count(*) FILTER (WHERE pg_temp.rand_a(id) <> pg_temp.rand_a(prev) + 1) <= 48 AS rand_a_plus_one,
	   count(*) FILTER (WHERE id < prev) <= 48 AS ascending,
	   count(*) FILTER (WHERE substr(id::bytea, 9) < substr(prev::bytea, 9)) > 0.4 * count(*) AS fresh_rand_b,
	   bool_and(pg_temp.v7_shaped(id)) AS all_shaped
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen_v7_seq) s
WHERE ulid_time(id) = ulid_time(prev);
-- Every run starts in the lower half: the first value of each millisecond
-- and each restart (drawn without the guard, half would not).
SELECT count(*) > 10 AS runs_seen,
	   count(*) FILTER (WHERE pg_temp.rand_a(id) >= 2048) AS started_in_upper_half
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen_v7_seq) s
WHERE prev IS NULL OR ulid_time(id) <> ulid_time(prev) OR id < prev;
-- gen_ulid() and gen_ulid_v7() called in turn, for one millisecond: each
-- steps from its own last value (ulid_gen.c keeps one for each), its
-- counter one above the one before of its kind.  A shared last value would
-- step each from the other's.  200 of each: no v7 restart (below 2,049), a
-- plain one with a chance of 0.3%.
SELECT v7, count(*) AS values,
	   count(*) FILTER (WHERE c <> pc + 1) <= 1 AS each_steps_its_own
FROM (SELECT v7, c, lag(c) OVER (PARTITION BY v7 ORDER BY n) AS pc
	  FROM (SELECT n, v7, CASE WHEN v7 THEN pg_temp.rand_a(id) ELSE get_byte(id::bytea, 6) * 256 + get_byte(id::bytea, 7) END AS c
			FROM (SELECT n, n % 2 = 0 AS v7,
						 CASE WHEN n % 2 = 0 THEN gen_ulid_v7('2021-06-01 00:00:00+00')
							  ELSE gen_ulid('2021-06-01 00:00:00+00') END AS id
				  FROM generate_series(1, 400) n) g) h) s
WHERE pc IS NOT NULL
GROUP BY v7 ORDER BY v7;
-- gen_ulid_v7(ts) too: 200 values of one millisecond never restart.
SELECT count(*) FILTER (WHERE id < prev) AS descending,
	   bool_and(pg_temp.v7_shaped(id)) AS all_shaped
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
	  FROM (SELECT n, gen_ulid_v7('2020-01-01 00:00:00+00') AS id
			FROM generate_series(1, 200) n) g) s;

-- gen_monotonic_ulid_v7(): 100,000 in one statement, strictly increasing in
-- the order generated, all shaped, inside the clock window.
CREATE TEMP TABLE gen_mono_v7 AS
	SELECT n, clock_timestamp() AS before, gen_monotonic_ulid_v7() AS id, clock_timestamp() AS after
	FROM generate_series(1, 100000) n;
SELECT count(*) AS not_increasing FROM (
	SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen_mono_v7) s
WHERE prev IS NOT NULL AND id <= prev;
SELECT count(DISTINCT id) FROM gen_mono_v7;
SELECT count(*) AS not_shaped FROM gen_mono_v7 WHERE NOT pg_temp.v7_shaped(id);
SELECT count(*) AS outside_window FROM gen_mono_v7
WHERE ulid_time(id) < date_trunc('milliseconds', before) OR ulid_time(id) > after;
-- Across statements of the session too.
SELECT gen_monotonic_ulid_v7() > (SELECT max(id) FROM gen_mono_v7) AS greater_than_before;

-- Interleaved with gen_monotonic_ulid() in one session, one call in two and
-- in runs of 100: each has a state of its own, so each sequence strictly
-- increases however the calls alternate, and the plain one keeps its 80
-- random bits (it does not count on from the v7 values).
CREATE TEMP TABLE gen_mixed AS
	SELECT n, v7, CASE WHEN v7 THEN gen_monotonic_ulid_v7() ELSE gen_monotonic_ulid() END AS id
	FROM generate_series(1, 100000) n,
		LATERAL (SELECT CASE WHEN n <= 50000 THEN n % 2 = 0 ELSE n / 100 % 2 = 0 END AS v7) k;
SELECT v7, count(*) AS values, count(DISTINCT id) AS distinct_ids,
	count(*) FILTER (WHERE id <= prev) AS not_increasing,
	bool_and(pg_temp.v7_shaped(id)) AS all_shaped
FROM (SELECT v7, id, lag(id) OVER (PARTITION BY v7 ORDER BY n) AS prev FROM gen_mixed) s
GROUP BY v7 ORDER BY v7;
-- Each continues above its own values in the next statement.
SELECT gen_monotonic_ulid_v7() > (SELECT max(id) FROM gen_mixed WHERE v7) AS v7_continues,
	gen_monotonic_ulid() > (SELECT max(id) FROM gen_mixed WHERE NOT v7) AS plain_continues;

-- Both shapes sort together by time: ids of earlier milliseconds first.
SELECT bool_and(a < b) AS earlier_ms_sorts_first FROM generate_series(1, 1000) n,
	LATERAL (SELECT gen_ulid_v7('2026-01-01'::timestamptz + n * interval '1 millisecond') AS a,
					gen_ulid('2026-01-01'::timestamptz + (n + 1) * interval '1 millisecond') AS b) p;
SELECT bool_and(a < b) AS earlier_ms_sorts_first FROM generate_series(1, 1000) n,
	LATERAL (SELECT gen_ulid('2026-01-01'::timestamptz + n * interval '1 millisecond') AS a,
					gen_ulid_v7('2026-01-01'::timestamptz + (n + 1) * interval '1 millisecond') AS b) p;

-- gen_ulid_v7(ts): ts floored to the millisecond, shaped, fresh random bits.
SELECT ulid_time(gen_ulid_v7('2016-07-30 22:36:16.385999+00')) = '2016-07-30 22:36:16.385+00' AS floored;
SELECT count(DISTINCT id) AS distinct_ids, bool_and(pg_temp.v7_shaped(id)) AS all_shaped
FROM (SELECT gen_ulid_v7('2020-01-01 00:00:00+00') AS id FROM generate_series(1, 1000)) s;
SELECT count(*) AS wrong_time FROM generate_series(1, 1000) n
WHERE ulid_time(gen_ulid_v7('2000-01-01'::timestamptz + n * interval '1 day 1 millisecond'))
	<> '2000-01-01'::timestamptz + n * interval '1 day 1 millisecond';
-- The ends of the ULID time range are accepted, and shaped.
SELECT pg_temp.v7_shaped(gen_ulid_v7('1970-01-01 00:00:00+00')) AS first_ms,
	pg_temp.v7_shaped(gen_ulid_v7('10889-08-02 05:31:50.655999+00')) AS last_ms;
SELECT gen_ulid_v7(NULL) IS NULL AS null_gives_null;
\set VERBOSITY sqlstate
SELECT gen_ulid_v7('1969-12-31 23:59:59.999999+00');
SELECT gen_ulid_v7('10889-08-02 05:31:50.656+00');
SELECT gen_ulid_v7('infinity');
SELECT gen_ulid_v7('-infinity');
\set VERBOSITY default
SELECT gen_ulid_v7('1969-12-31 23:59:59+00');

-- Volatility, strictness and parallel safety as declared: as gen_ulid()'s
-- and gen_monotonic_ulid()'s.
SELECT p.oid::regprocedure, provolatile, proparallel, proisstrict FROM pg_proc p
WHERE proname IN ('gen_ulid_v7', 'gen_monotonic_ulid_v7') ORDER BY p.oid::regprocedure::text;
-- A DEFAULT calls it once per row.
CREATE TEMP TABLE gen_v7_default (id ulid DEFAULT gen_ulid_v7(), m ulid DEFAULT gen_monotonic_ulid_v7(), n int);
INSERT INTO gen_v7_default (n) SELECT generate_series(1, 1000);
SELECT count(DISTINCT id) AS ids, count(DISTINCT m) AS monotonic_ids,
	bool_and(pg_temp.v7_shaped(id) AND pg_temp.v7_shaped(m)) AS all_shaped
FROM gen_v7_default;
