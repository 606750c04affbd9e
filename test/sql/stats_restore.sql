-- PostgreSQL 19 dumps and restores extended statistics
-- (pg_restore_extended_stats(), which pg_dump now writes): the values of a
-- ulid column in a multi-column MCV list travel as ulid text, read back
-- through ulid_in.  pg_clear_extended_stats() empties them.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- The planner's estimate of a query's rows.
CREATE FUNCTION pg_temp.estimate(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT json) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::int;
END $$;

CREATE TABLE stats_t (id ulid, kind int);
INSERT INTO stats_t
	SELECT CASE WHEN n % 3 = 0 THEN '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid
		ELSE '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid END, n % 3
	FROM generate_series(1, 3000) n;
CREATE STATISTICS stats_t_ext (mcv, ndistinct, dependencies) ON id, kind FROM stats_t;
ANALYZE stats_t;
SELECT most_common_vals, most_common_freqs FROM pg_stats_ext WHERE statistics_name = 'stats_t_ext';
CREATE TEMP TABLE stats_saved AS
	SELECT n_distinct::text AS n_distinct, dependencies::text AS dependencies,
		most_common_vals, most_common_freqs, most_common_base_freqs
	FROM pg_stats_ext WHERE statistics_name = 'stats_t_ext';

-- With the MCV list, a combination is estimated at its frequency (1,000 of 3,000 rows).
SELECT pg_temp.estimate($$SELECT * FROM stats_t WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV' AND kind = 0$$);

SELECT pg_clear_extended_stats('public', 'stats_t', 'public', 'stats_t_ext', false);
SELECT count(*) AS left_after_clear FROM pg_stats_ext
WHERE statistics_name = 'stats_t_ext' AND most_common_vals IS NOT NULL;
-- Without it, the columns count as independent: 3,000 x 1/3 x 1/3.
SELECT pg_temp.estimate($$SELECT * FROM stats_t WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV' AND kind = 0$$);

-- Restored as pg_dump writes it: the same MCV list as ANALYZE made.
SELECT pg_restore_extended_stats(
	'schemaname', 'public', 'relname', 'stats_t',
	'statistics_schemaname', 'public', 'statistics_name', 'stats_t_ext',
	'inherited', false,
	'n_distinct', n_distinct::pg_ndistinct,
	'dependencies', dependencies::pg_dependencies,
	'most_common_vals', most_common_vals,
	'most_common_freqs', most_common_freqs,
	'most_common_base_freqs', most_common_base_freqs)
FROM stats_saved;
SELECT e.most_common_vals = s.most_common_vals AS same_values,
	e.most_common_freqs = s.most_common_freqs AS same_freqs
FROM pg_stats_ext e, stats_saved s WHERE e.statistics_name = 'stats_t_ext';
-- The planner uses it again.
SELECT pg_temp.estimate($$SELECT * FROM stats_t WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV' AND kind = 0$$);

-- Text that is not a ulid in the MCV list: a WARNING, and the MCV list is
-- not restored (the function reports it with false, it does not fail).
SELECT pg_clear_extended_stats('public', 'stats_t', 'public', 'stats_t_ext', false);
SELECT pg_restore_extended_stats(
	'schemaname', 'public', 'relname', 'stats_t',
	'statistics_schemaname', 'public', 'statistics_name', 'stats_t_ext',
	'inherited', false,
	'most_common_vals', '{{01ARYZ6S41TSV4RRFFQ69G5FAU,0},{7ZZZZZZZZZZZZZZZZZZZZZZZZZ,1}}'::text[],
	'most_common_freqs', '{0.5,0.5}'::float8[],
	'most_common_base_freqs', '{0.25,0.25}'::float8[]);
SELECT count(*) AS mcv_lists FROM pg_stats_ext
WHERE statistics_name = 'stats_t_ext' AND most_common_vals IS NOT NULL;

DROP TABLE stats_t;
