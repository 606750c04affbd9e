-- Leaf density of a primary key after one load: each generator as the
-- DEFAULT of a fresh table, :N rows in one INSERT ... SELECT (as
-- workloads/bulk_insert.sql and peers_v7.sql load them), then pgstatindex().
-- Untimed; the figures are sizes and densities, the same on any machine
-- for the same rate of ids a millisecond.  Prints CSV.  Run as
--   psql -X -q -v N=1000000 -f bench/leaf_density.sql
-- in a database with ulid (and, where they exist, uuidv7() of 18 and
-- pg_uuidv7); generators the server lacks are left out.
\set QUIET on
CREATE EXTENSION IF NOT EXISTS pgstattuple;
CREATE SEQUENCE IF NOT EXISTS ld_seq;
CREATE TEMP TABLE density (generator text, type text, rows bigint, index_bytes bigint,
						   leaf_pages bigint, avg_leaf_density numeric, ids_per_ms numeric);
CREATE FUNCTION pg_temp.measure(gen text, typ text, n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	t1 timestamptz;
BEGIN
	DROP TABLE IF EXISTS ld;
	EXECUTE format('CREATE TABLE ld (id %s DEFAULT %s PRIMARY KEY, n int)', typ, gen);
	t0 := clock_timestamp();
	EXECUTE format('INSERT INTO ld (n) SELECT g FROM generate_series(1, %s) g', n);
	t1 := clock_timestamp();
	INSERT INTO density
	SELECT gen, typ, n, pg_relation_size('ld_pkey'), s.leaf_pages, s.avg_leaf_density,
		   round(n / (extract(epoch FROM t1 - t0) * 1000)::numeric)
	FROM pgstatindex('ld_pkey') s;
END
$$;
SELECT pg_temp.measure(g, t, :N)
FROM (VALUES (1, 'gen_monotonic_ulid()', 'ulid'), (2, 'gen_ulid()', 'ulid'), (3, 'gen_ulid_v7()', 'ulid'),
			 (4, 'uuidv7()', 'uuid'), (5, 'uuid_generate_v7()', 'uuid'), (6, 'gen_random_uuid()', 'uuid'),
			 (7, 'nextval(''ld_seq'')', 'bigint')) v(o, g, t)
WHERE to_regprocedure(regexp_replace(g, '\(.*', '') || '()') IS NOT NULL OR g LIKE 'nextval%'
ORDER BY o;
DROP TABLE ld;
DROP SEQUENCE ld_seq;
\pset format csv
\pset tuples_only off
SELECT current_setting('server_version') AS server, * FROM density;
