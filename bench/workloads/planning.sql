-- Planning time of many time windows on an indexed ulid column against the
-- same windows on an indexed timestamptz column (the peer): 1,000 OR-ed
-- windows bounded by times, by ulids and by tstzranges, and 300 windows
-- ANDed with "> ANY" of a 2,000-element array.  LIMIT 0 plans the whole
-- query (every estimate, every index path) and runs none of it.  1.1's
-- estimator searched every window for each clause: planning grew with the
-- square of the windows (issue 26).  The table: 100,000 rows five minutes
-- apart, whatever :N is.
-- cluster: plain
-- rounds: 9

-- @setup
CREATE TABLE IF NOT EXISTS pw AS
	SELECT u AS id, ulid_time(u) AS ts
	FROM (SELECT gen_ulid('2024-01-01+00'::timestamptz + g * interval '5 min') AS u
		  FROM generate_series(1, 100000) g) s;
CREATE INDEX IF NOT EXISTS pw_id ON pw (id);
CREATE INDEX IF NOT EXISTS pw_ts ON pw (ts);
VACUUM ANALYZE pw;
-- The conditions, one row each, written once: a case reads its own into a
-- psql variable before its timed statement.
CREATE OR REPLACE FUNCTION pg_temp.windows(n int, form text) RETURNS text
LANGUAGE sql AS $$
	SELECT string_agg(format(form, lo, lo + interval '1 hour'), ' OR ')
	FROM (SELECT '2024-01-01+00'::timestamptz + (g * 3) % 8760 * interval '1 hour' AS lo
		  FROM generate_series(1, n) g) w
$$;
CREATE TABLE IF NOT EXISTS pw_where (name text PRIMARY KEY, cond text);
INSERT INTO pw_where VALUES
	('ts_times', pg_temp.windows(1000, '(ts >= %L::timestamptz AND ts < %L::timestamptz)')),
	('id_times', pg_temp.windows(1000, '(id >= %L::timestamptz AND id < %L::timestamptz)')),
	('id_ulids', pg_temp.windows(1000, '(id >= %L::timestamptz::ulid AND id < %L::timestamptz::ulid)')),
	('ts_ranges', pg_temp.windows(1000, 'ts <@ tstzrange(%L, %L)')),
	('id_ranges', pg_temp.windows(1000, 'id <@ tstzrange(%L, %L)')),
	('ts_any', '(' || pg_temp.windows(300, '(ts >= %L::timestamptz AND ts < %L::timestamptz)') ||
		') AND ts > ANY (' || quote_literal((SELECT array_agg('2024-01-01+00'::timestamptz + g * interval '4 hours')
			FROM generate_series(1, 2000) g)) || '::timestamptz[])'),
	('id_any', '(' || pg_temp.windows(300, '(id >= %L::timestamptz AND id < %L::timestamptz)') ||
		') AND id > ANY (' || quote_literal((SELECT array_agg('2024-01-01+00'::timestamptz + g * interval '4 hours')
			FROM generate_series(1, 2000) g)) || '::timestamptz[])')
ON CONFLICT DO NOTHING;

-- @check
SELECT plan_of('SELECT * FROM pw WHERE id > ''2024-12-10+00''::timestamptz') LIKE '%pw_id%';

-- @case 1000 windows: timestamptz
SELECT cond AS cond FROM pw_where WHERE name = 'ts_times' \gset
-- @timed
SELECT * FROM pw WHERE :cond LIMIT 0;

-- @case 1000 windows: ulid, time bounds vs 1000 windows: timestamptz
SELECT cond AS cond FROM pw_where WHERE name = 'id_times' \gset
-- @timed
SELECT * FROM pw WHERE :cond LIMIT 0;

-- @case 1000 windows: ulid, ulid bounds vs 1000 windows: timestamptz
SELECT cond AS cond FROM pw_where WHERE name = 'id_ulids' \gset
-- @timed
SELECT * FROM pw WHERE :cond LIMIT 0;

-- @case 1000 ranges: timestamptz
SELECT cond AS cond FROM pw_where WHERE name = 'ts_ranges' \gset
-- @timed
SELECT * FROM pw WHERE :cond LIMIT 0;

-- @case 1000 ranges: ulid vs 1000 ranges: timestamptz
SELECT cond AS cond FROM pw_where WHERE name = 'id_ranges' \gset
-- @timed
SELECT * FROM pw WHERE :cond LIMIT 0;

-- @case 300 windows and > ANY(2000): timestamptz
SELECT cond AS cond FROM pw_where WHERE name = 'ts_any' \gset
-- @timed
SELECT * FROM pw WHERE :cond LIMIT 0;

-- @case 300 windows and > ANY(2000): ulid vs 300 windows and > ANY(2000): timestamptz
SELECT cond AS cond FROM pw_where WHERE name = 'id_any' \gset
-- @timed
SELECT * FROM pw WHERE :cond LIMIT 0;
