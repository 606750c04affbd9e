-- Generators, checked through invariants: distinctness, time window, order.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- gen_ulid(): 100,000 values, all distinct, each stamped with a time inside
-- the clock_timestamp() window around its own call (floored to the ms).
CREATE TEMP TABLE gen_plain AS
	SELECT n, clock_timestamp() AS before, gen_ulid() AS id, clock_timestamp() AS after
	FROM generate_series(1, 100000) n;
SELECT count(*) AS total, count(DISTINCT id) AS distinct_ids FROM gen_plain;
SELECT count(*) AS outside_window FROM gen_plain
WHERE ulid_time(id) < date_trunc('milliseconds', before) OR ulid_time(id) > after;
-- The random parts are not constant: over 100,000 ids each of the 80 random
-- bits is set in some and clear in others.
SELECT count(*) AS random_bits_seen_both_ways FROM generate_series(48, 127) b
WHERE EXISTS (SELECT FROM gen_plain WHERE get_bit(id::bytea, b) = 1)
  AND EXISTS (SELECT FROM gen_plain WHERE get_bit(id::bytea, b) = 0);

-- Within one millisecond the session's gen_ulid() values ascend: each has
-- the counter in bytes 6-7 of the one before plus one, and fresh random
-- bytes below it, except where that counter is at its largest and the value
-- is fresh random bits instead (about one value in 65,536 restarts: 10
-- allowed in these 100,000).  The first 8 bytes, sorting's abbreviated key,
-- then differ between neighbours.  Independent draws would descend in half
-- the pairs; a step that added to the bytes below would keep them up.
CREATE FUNCTION pg_temp.counter(u ulid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT
RETURN get_byte(u::bytea, 6) * 256 + get_byte(u::bytea, 7);
SELECT count(*) > 10000 AS many_share_a_millisecond,
	   count(*) FILTER (WHERE pg_temp.counter(id) <> pg_temp.counter(prev) + 1) <= 10 AS counter_plus_one,
	   count(*) FILTER (WHERE substr(id::bytea, 9) < substr(prev::bytea, 9)) > 0.4 * count(*) AS fresh_below_it
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen_plain) s
WHERE ulid_time(id) = ulid_time(prev);
-- Every value still carries its own call's millisecond (checked above), and
-- a new millisecond starts from fresh bits: across millisecond boundaries
-- about half the random parts go down (a step that carried on would never).
SELECT count(*) FILTER (WHERE substr(id::bytea, 7) < substr(prev::bytea, 7))
		 > 0.1 * count(*) AS fresh_bits_each_millisecond
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen_plain) s
WHERE ulid_time(id) > ulid_time(prev);

-- gen_monotonic_ulid(): 100,000 in one statement, strictly increasing in the
-- order generated, and stamped no later than the clock.
CREATE TEMP TABLE gen_mono AS
	SELECT n, gen_monotonic_ulid() AS id, clock_timestamp() AS after
	FROM generate_series(1, 100000) n;
SELECT count(*) AS not_increasing FROM (
	SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen_mono) s
WHERE prev IS NOT NULL AND id <= prev;
SELECT count(DISTINCT id) FROM gen_mono;
SELECT count(*) AS later_than_clock FROM gen_mono WHERE ulid_time(id) > after;
-- Across statements of the session too.
SELECT gen_monotonic_ulid() > (SELECT max(id) FROM gen_mono);

-- Not preloaded here, so the state is per backend, and says so.
SELECT ulid_monotonic_scope();

-- gen_ulid(ts): carries ts floored to the millisecond, fresh random bits.
SELECT ulid_time(gen_ulid('2016-07-30 22:36:16.385999+00')) = '2016-07-30 22:36:16.385+00';
SELECT count(DISTINCT gen_ulid('2020-01-01 00:00:00+00')) FROM generate_series(1, 1000);
-- and ascend as gen_ulid()'s do (a restart: about one chance in 66 here)
SELECT count(*) FILTER (WHERE id < prev) <= 3 AS ascending
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
	  FROM (SELECT n, gen_ulid('2020-01-01 00:00:00+00') AS id
			FROM generate_series(1, 1000) n) g) s;
SELECT count(*) FROM generate_series(1, 1000) n
WHERE ulid_time(gen_ulid('2000-01-01'::timestamptz + n * interval '1 day 1 millisecond'))
	<> '2000-01-01'::timestamptz + n * interval '1 day 1 millisecond';
SELECT gen_ulid(NULL) IS NULL;
\set VERBOSITY sqlstate
SELECT gen_ulid('1969-12-31 23:59:59+00');
\set VERBOSITY default
SELECT gen_ulid('1969-12-31 23:59:59+00');
SELECT gen_ulid('infinity');

-- Volatility and parallel safety as declared.
SELECT p.oid::regprocedure, provolatile, proparallel, proisstrict FROM pg_proc p
WHERE proname IN ('gen_ulid', 'gen_monotonic_ulid') ORDER BY p.oid::regprocedure::text;
-- A DEFAULT calls it once per row.
CREATE TEMP TABLE gen_default (id ulid DEFAULT gen_ulid(), m ulid DEFAULT gen_monotonic_ulid(), n int);
INSERT INTO gen_default (n) SELECT generate_series(1, 1000);
SELECT count(DISTINCT id), count(DISTINCT m) FROM gen_default;
