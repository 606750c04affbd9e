--
-- ulidrange and ulidmultirange: ranges of ulids, bounds exact to the id.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;
\i test/sql/include/plan_has.sql

-- Neighbours and extremes used below.
\set a '''01ARZ3NDEKTSV4RRFFQ69G5FAV'''
\set b '''01ARZ3NDEKTSV4RRFFQ69G5FAW'''
\set c '''01ARZ3NDEKTSV4RRFFQ69G5FAX'''
\set lo '''00000000000000000000000000'''
\set hi '''7ZZZZZZZZZZZZZZZZZZZZZZZZZ'''

--
-- Construction
--
SELECT ulidrange(:a, :c) AS default_bounds;
SELECT ulidrange(:a, :c, '[]') AS closed, ulidrange(:a, :c, '()') AS open;
SELECT '[01ARZ3NDEKTSV4RRFFQ69G5FAV,01ARZ3NDEKTSV4RRFFQ69G5FAX)'::ulidrange = ulidrange(:a, :c) AS literal_equal;
-- Bounds are read as ulid input: either case, or a UUID's text form.
SELECT '[01arz3ndektsv4rrffq69g5fav,01ARZ3NDEKTSV4RRFFQ69G5FAX)'::ulidrange = ulidrange(:a, :c) AS lower_case,
	format('[%s,%s)', :a::ulid::uuid, :c::ulid::uuid)::ulidrange = ulidrange(:a, :c) AS uuid_text;
SELECT ulidrange(:a, NULL) AS no_upper, ulidrange(NULL, :a) AS no_lower, '(,)'::ulidrange AS everything;
-- Empty: [a, a) and (a, a); [a, a] holds a.  No canonical form: (a, b) holds
-- no ulid when b follows a, and is not empty, as (x, x + epsilon) of numrange.
SELECT isempty(ulidrange(:a, :a)) AS half_open, isempty(ulidrange(:a, :a, '()')) AS open,
	isempty(ulidrange(:a, :a, '[]')) AS closed, isempty(ulidrange(:a, :b, '()')) AS open_neighbours;
-- Lower above upper: data_exception, 22000.
\set VERBOSITY sqlstate
SELECT ulidrange(:b, :a);
SELECT '[01ARZ3NDEKTSV4RRFFQ69G5FAW,01ARZ3NDEKTSV4RRFFQ69G5FAV)'::ulidrange;
\set VERBOSITY default
SELECT ulidrange(:a, :b) = ulidrange(:a, :b, '[)') AS default_is_half_open;
SELECT lower(ulidrange(:a, :c)) = :a AND upper(ulidrange(:a, :c)) = :c AS bounds_kept;
-- Multiranges: overlapping and adjacent ranges merge.
SELECT ulidmultirange() AS empty_multi, ulidmultirange(ulidrange(:a, :b)) AS one;
SELECT ulidmultirange(ulidrange(:a, :b), ulidrange(:b, :c)) AS adjacent_merge,
	ulidmultirange(ulidrange(:b, :c), ulidrange(:lo, :a, '[]')) AS apart_sorted;
SELECT range_agg(r) AS agg FROM (VALUES (ulidrange(:a, :b)), (ulidrange(:b, :c, '[]'))) v(r);

--
-- Containment and overlap
--
SELECT ulidrange(:a, :b) @> :a::ulid AS lower_in, ulidrange(:a, :b) @> :b::ulid AS upper_out,
	ulidrange(:a, :b, '(]') @> :a::ulid AS open_lower_out, ulidrange(:a, :b, '(]') @> :b::ulid AS closed_upper_in;
SELECT '(,)'::ulidrange @> :lo::ulid AS lowest_in, '(,)'::ulidrange @> :hi::ulid AS highest_in,
	ulidrange(NULL, :hi) @> :hi::ulid AS open_upper_excludes_it,
	ulidrange(:lo, NULL) @> :lo::ulid AS inclusive_lower_holds_it;
SELECT :b::ulid <@ ulidrange(:a, :c) AS contained_by, ulidrange(:a, :c) @> ulidrange(:a, :b) AS contains_range;
SELECT ulidrange(:a, :b) && ulidrange(:b, :c) AS half_open_touch, ulidrange(:a, :b) -|- ulidrange(:b, :c) AS adjacent,
	ulidrange(:a, :b, '[]') && ulidrange(:b, :c) AS closed_overlaps, ulidrange(:a, :b) * ulidrange(:a, :c) AS intersection;
SELECT ulidmultirange(ulidrange(:a, :b), ulidrange(:c, NULL)) @> :c::ulid AS multi_contains,
	ulidmultirange(ulidrange(:a, :b), ulidrange(:c, NULL)) @> :b::ulid AS gap_not_contained;

--
-- subtype_diff: a - b as 128-bit numbers, as float8
--
-- Neighbours differ by 1 either way round, also at the top of the range,
-- where the values themselves are far beyond float8's 53 bits.
SELECT ulidrange_subdiff(:b, :a) AS b_minus_a, ulidrange_subdiff(:a, :b) AS a_minus_b,
	ulidrange_subdiff(:a, :a) AS same,
	ulidrange_subdiff(:hi, '7ZZZZZZZZZZZZZZZZZZZZZZZZY') AS top_neighbours;
-- One millisecond is 2^80; the whole space is 2^128 - 1, which rounds to 2^128.
SELECT ulidrange_subdiff(ulid_min_at('2026-01-01 00:00:00.001+00'), ulid_min_at('2026-01-01 00:00+00'))
	= 2::float8 ^ 80 AS millisecond_is_2_80,
	ulidrange_subdiff(ulid_min_at('2026-01-01 00:00:00.001+00'), ulid_max_at('2026-01-01 00:00+00')) AS across_milliseconds,
	ulidrange_subdiff(:hi, :lo) = 2::float8 ^ 128 AS whole_space, ulidrange_subdiff(:lo, :hi) = -(2::float8 ^ 128) AS whole_space_negated;
-- Neighbours across the two 64-bit halves, where the subtraction borrows:
-- 2^64 - (2^64 - 1), and the same with every high bit set.
SELECT ulidrange_subdiff('0000000000000G000000000000', '0000000000000FZZZZZZZZZZZZ') AS borrow,
	ulidrange_subdiff('7ZZZZZZZZZZZZG000000000000', '7ZZZZZZZZZZZZFZZZZZZZZZZZZ') AS borrow_high;
-- Monotone and antisymmetric over sorted samples: extremes, neighbours, the
-- bounds of a few milliseconds and random ids: for every pair x <= y and
-- every z, diff(x, z) <= diff(y, z) and diff(z, x) >= diff(z, y), and
-- diff(x, y) = -diff(y, x).
CREATE TEMP TABLE samples AS
	SELECT DISTINCT u FROM (
		SELECT v::ulid AS u FROM (VALUES (:lo), (:hi), (:a), (:b), (:c),
			('7ZZZZZZZZZZZZZZZZZZZZZZZZY'), ('00000000000000000000000001'),
			('0000000000000G000000000000'), ('0000000000000FZZZZZZZZZZZZ')) v(v)
		UNION ALL SELECT ulid_min_at(t) FROM generate_series('2026-01-01'::timestamptz, '2026-01-01 00:00:00.005', '1 ms') t
		UNION ALL SELECT ulid_max_at(t) FROM generate_series('2026-01-01'::timestamptz, '2026-01-01 00:00:00.005', '1 ms') t
		UNION ALL SELECT gen_ulid() FROM generate_series(1, 20)
		UNION ALL SELECT gen_ulid('2026-01-01 00:00:00.002+00') FROM generate_series(1, 20)) s;
SELECT count(*) AS pairs_checked,
	count(*) FILTER (WHERE ulidrange_subdiff(x.u, z.u) > ulidrange_subdiff(y.u, z.u)) AS not_monotone_in_first,
	count(*) FILTER (WHERE ulidrange_subdiff(z.u, x.u) < ulidrange_subdiff(z.u, y.u)) AS not_monotone_in_second,
	count(*) FILTER (WHERE sign(ulidrange_subdiff(x.u, y.u)) <> sign(ulid_cmp(x.u, y.u))) AS wrong_sign
FROM samples x JOIN samples y ON x.u <= y.u CROSS JOIN samples z;
SELECT count(*) FILTER (WHERE ulidrange_subdiff(x.u, y.u) <> -ulidrange_subdiff(y.u, x.u)) AS not_antisymmetric
FROM samples x, samples y;
DROP TABLE samples;

--
-- A GiST index on a ulidrange column
--
-- Span g starts at second 10 g of 2026 and lasts 1 to 20 seconds: some
-- overlap their neighbours, and their lengths vary.
CREATE TABLE spans (g int, r ulidrange);
INSERT INTO spans
	SELECT g, ulidrange(ulid_min_at(t0 + g * interval '10 s'), ulid_min_at(t0 + g * interval '10 s' + (1 + g % 20) * interval '1 s'))
	FROM generate_series(0, 9999) g, (SELECT '2026-01-01 00:00+00'::timestamptz AS t0) c;
CREATE INDEX spans_r ON spans USING gist (r);
ANALYZE spans;

CREATE TEMP TABLE queries (name text, query text);
INSERT INTO queries VALUES
	('&& a minute', $$SELECT g FROM spans WHERE r && ulidrange(ulid_min_at('2026-01-02 00:00+00'), ulid_min_at('2026-01-02 00:01+00'))$$),
	('&& a day', $$SELECT g FROM spans WHERE r && ulidrange(ulid_min_at('2026-01-01 12:00+00'), ulid_min_at('2026-01-02 12:00+00'))$$),
	('&& an id', $$SELECT g FROM spans WHERE r && ulidrange(ulid_min_at('2026-01-02 00:00:05+00'), ulid_min_at('2026-01-02 00:00:05+00'), '[]')$$),
	('@> an id', $$SELECT g FROM spans WHERE r @> ulid_max_at('2026-01-02 00:00:11.5+00')$$),
	('@> a range', $$SELECT g FROM spans WHERE r @> ulidrange(ulid_min_at('2026-01-02 00:00:01+00'), ulid_min_at('2026-01-02 00:00:02+00'))$$),
	('<@ a range', $$SELECT g FROM spans WHERE r <@ ulidrange(ulid_min_at('2026-01-02 00:00+00'), ulid_min_at('2026-01-02 01:00+00'))$$);

-- The index is used, and finds the rows a sequential scan finds.
CREATE FUNCTION pg_temp.rows_of(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	res text;
BEGIN
	EXECUTE 'SELECT string_agg(g::text, '','' ORDER BY g) FROM (' || query || ') s' INTO res;
	RETURN res;
END $$;
CREATE TEMP TABLE by_seqscan AS SELECT name, pg_temp.rows_of(query) AS found FROM queries;
SET enable_seqscan = off;
SELECT q.name, pg_temp.plan_has(q.query, 'spans_r') AS index_used,
	array_length(string_to_array(s.found, ','), 1) AS rows_found,
	pg_temp.rows_of(q.query) IS NOT DISTINCT FROM s.found AS same_as_seqscan
FROM queries q JOIN by_seqscan s USING (name) ORDER BY q.name;
RESET enable_seqscan;

--
-- Range statistics and selectivity
--
-- ANALYZE keeps a bounds and a length histogram (pg_statistic kinds 7 and 6;
-- pg_stats shows them from PostgreSQL 17 on).  The lengths come from
-- ulidrange_subdiff (without one, every length would be 1): 1 to 20 s, in
-- units of one ulid, 2^80 a millisecond.
CREATE TEMP TABLE range_stats AS
	SELECT k.kind, k.vals::text AS vals, k.nums
	FROM pg_statistic s,
		LATERAL (VALUES (s.stakind1, s.stavalues1, s.stanumbers1), (s.stakind2, s.stavalues2, s.stanumbers2),
						(s.stakind3, s.stavalues3, s.stanumbers3), (s.stakind4, s.stavalues4, s.stanumbers4),
						(s.stakind5, s.stavalues5, s.stanumbers5)) k(kind, vals, nums)
	WHERE s.starelid = 'spans'::regclass
	  AND s.staattnum = (SELECT attnum FROM pg_attribute WHERE attrelid = 'spans'::regclass AND attname = 'r')
	  AND k.kind IN (6, 7);
SELECT kind, CASE kind WHEN 6 THEN 'length histogram' ELSE 'bounds histogram' END AS histogram,
	array_length(vals::text[], 1) > 10 AS has_entries
FROM range_stats ORDER BY kind;
SELECT min(l) / 2 ^ 80 AS shortest_ms, max(l) / 2 ^ 80 AS longest_ms, count(DISTINCT l) AS distinct_lengths
FROM range_stats, unnest(vals::float8[]) l WHERE kind = 6;

-- The planner's row estimate for each query, next to the rows it returns.
CREATE FUNCTION pg_temp.estimate(query text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
-- Within a factor of two (or two rows) of the truth, and so the planner
-- takes the index for the narrow ones and not for half the table.
SELECT q.name, coalesce(array_length(string_to_array(s.found, ','), 1), 0) AS actual,
	pg_temp.estimate(q.query) BETWEEN coalesce(array_length(string_to_array(s.found, ','), 1), 0) / 2.0 - 2
		AND coalesce(array_length(string_to_array(s.found, ','), 1), 0) * 2.0 + 2 AS estimate_close,
	pg_temp.plan_has(q.query, 'spans_r') AS index_chosen
FROM queries q JOIN by_seqscan s USING (name) ORDER BY q.name;

-- The contrast: the same spans as a range type with no subtype_diff.  ANALYZE
-- can measure no length, and the planner cannot place a bound within its
-- histogram bin (of about 100 spans here): five minutes, 31 spans, are
-- estimated at 1 row without the diff, exactly with it.
CREATE TYPE ulidrange_nodiff AS RANGE (SUBTYPE = ulid);
CREATE TABLE spans_nodiff AS SELECT g, ulidrange_nodiff(lower(r), upper(r)) AS r FROM spans;
ANALYZE spans_nodiff;
SELECT pg_temp.estimate($$SELECT g FROM spans_nodiff WHERE r && ulidrange_nodiff(ulid_min_at('2026-01-02 00:03:20+00'), ulid_min_at('2026-01-02 00:08:20+00'))$$) AS estimate_without_diff,
	pg_temp.estimate($$SELECT g FROM spans WHERE r && ulidrange(ulid_min_at('2026-01-02 00:03:20+00'), ulid_min_at('2026-01-02 00:08:20+00'))$$) AS estimate_with_diff,
	(SELECT count(*) FROM spans WHERE r && ulidrange(ulid_min_at('2026-01-02 00:03:20+00'), ulid_min_at('2026-01-02 00:08:20+00'))) AS actual;
DROP TABLE spans_nodiff;
DROP TYPE ulidrange_nodiff;

--
-- An exclusion constraint: claimed spans of ids never overlap
--
CREATE TABLE claims (worker int, ids ulidrange, EXCLUDE USING gist (ids WITH &&));
INSERT INTO claims VALUES (1, ulidrange(:a, :c));
-- Adjacent is not overlapping: [a, c) then [c, ...).
INSERT INTO claims VALUES (2, ulidrange(:c, NULL));
-- Overlapping by one id: exclusion_violation, 23P01.
\set VERBOSITY sqlstate
INSERT INTO claims VALUES (3, ulidrange(:lo, :a, '[]'));
\set VERBOSITY default
INSERT INTO claims VALUES (3, ulidrange(:lo, :a));
SELECT worker, ids FROM claims ORDER BY ids;

--
-- An untyped range literal beside a ulid is a tstzrange: "id <@ r" with a
-- tstzrange is an exact match for the left argument, so operator resolution
-- picks it over core's polymorphic "anyelement <@ anyrange" before any code
-- of ulid's runs.  ULID bounds then fail in core's timestamptz input
-- (22007), with core's message; time bounds work.  Typed ::ulidrange, ULID
-- bounds work.  An operator "ulid <@ ulidrange" of ulid's own would make
-- every untyped literal ambiguous, time bounds included, so there is none.
--
SET TimeZone = 'UTC';
\set VERBOSITY sqlstate
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid <@ '[01ARYZ6S41TSV4RRFFQ69G5FA0,01ARYZ6S41TSV4RRFFQ69G5FAZ)';
\set VERBOSITY default
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid <@ '[01ARYZ6S41TSV4RRFFQ69G5FA0,01ARYZ6S41TSV4RRFFQ69G5FAZ)';
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid <@ '[01ARYZ6S41TSV4RRFFQ69G5FA0,01ARYZ6S41TSV4RRFFQ69G5FAZ)'::ulidrange AS typed_ulidrange;
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid <@ '[2016-07-30 22:36:16+00,2016-07-30 22:36:17+00)' AS untyped_time_range;
-- With such an operator (made in a transaction, undone), the time literal
-- that works today is ambiguous.
BEGIN;
CREATE FUNCTION ulid_in_ulidrange(ulid, ulidrange) RETURNS boolean LANGUAGE sql AS 'SELECT $1 <@ $2';
CREATE OPERATOR <@ (LEFTARG = ulid, RIGHTARG = ulidrange, FUNCTION = ulid_in_ulidrange);
-- (ambiguous_function, 42725; its detail and hint are worded differently
-- from 19 on: terse)
\set VERBOSITY terse
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid <@ '[2016-07-30 22:36:16+00,2016-07-30 22:36:17+00)' AS untyped_time_range;
\set VERBOSITY default
ROLLBACK;
RESET TimeZone;

DROP TABLE spans, queries, by_seqscan, range_stats, claims;
RESET max_parallel_workers_per_gather;
DROP FUNCTION pg_temp.plan_has(text, text), pg_temp.rows_of(text), pg_temp.estimate(text);
